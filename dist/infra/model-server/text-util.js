"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bound = bound;
exports.stripMarkers = stripMarkers;
exports.oneLine = oneLine;
exports.uniqueInOrder = uniqueInOrder;
/** Cuts text to at most `max` characters (by code point), marking the cut with an ellipsis. */
function bound(text, max) {
    const chars = Array.from(text);
    if (chars.length <= max)
        return text;
    return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}
/** Removes `[[...]]` control markers (skill hints, faults) so they never leak into skill text. */
function stripMarkers(text) {
    return text.replace(/\[\[[^\]\n]*\]\]/g, ' ');
}
function oneLine(text) {
    return text.replace(/\s+/g, ' ').trim();
}
function uniqueInOrder(items, key = String) {
    const seen = new Set();
    const out = [];
    for (const item of items) {
        const k = key(item);
        if (seen.has(k))
            continue;
        seen.add(k);
        out.push(item);
    }
    return out;
}
//# sourceMappingURL=text-util.js.map