"use strict";
/**
 * Size bounds measured in UTF-8 bytes (what storage and model context cost),
 * cutting only between code points: a surrogate pair is never split, so the
 * result never contains a half character.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.utf8ByteLength = utf8ByteLength;
exports.boundText = boundText;
exports.truncateHead = truncateHead;
/** UTF-8 byte length without allocating (lone surrogates count as U+FFFD, 3 bytes, as TextEncoder does). */
function utf8ByteLength(text) {
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const width = codeUnitWidth(text, i);
        bytes += width.bytes;
        i += width.units - 1;
    }
    return bytes;
}
/** End index (in UTF-16 units) of the longest prefix that fits in `maxBytes`. */
function prefixEnd(text, maxBytes) {
    let bytes = 0;
    let i = 0;
    while (i < text.length) {
        const width = codeUnitWidth(text, i);
        if (bytes + width.bytes > maxBytes)
            break;
        bytes += width.bytes;
        i += width.units;
    }
    return i;
}
/** Start index (in UTF-16 units) of the longest suffix that fits in `maxBytes`. */
function suffixStart(text, maxBytes) {
    let bytes = 0;
    let i = text.length;
    while (i > 0) {
        let units = 1;
        const c = text.charCodeAt(i - 1);
        if (isLowSurrogate(c) && i >= 2 && isHighSurrogate(text.charCodeAt(i - 2)))
            units = 2;
        const width = codeUnitWidth(text, i - units);
        if (bytes + width.bytes > maxBytes)
            break;
        bytes += width.bytes;
        i -= units;
    }
    return i;
}
function truncationMarker(omittedBytes) {
    return `\n...[${omittedBytes} bytes truncated]...\n`;
}
/**
 * Text that fits in `maxBytes` UTF-8 bytes: unchanged when it already fits,
 * otherwise its head and tail with a marker saying how many bytes were cut.
 * The result (marker included) never exceeds `maxBytes`. When `maxBytes` is
 * too small to hold the marker, only the head is kept.
 */
function boundText(text, maxBytes, options = {}) {
    assertByteLimit(maxBytes);
    const total = utf8ByteLength(text);
    if (total <= maxBytes)
        return text;
    const headRatio = options.headRatio ?? 0.75;
    if (!(headRatio >= 0 && headRatio <= 1))
        throw new RangeError('headRatio must be in [0, 1]');
    // Size the marker for the largest possible count so the final one can only be shorter.
    const markerBudget = utf8ByteLength(truncationMarker(total));
    if (maxBytes < markerBudget + 2)
        return text.slice(0, prefixEnd(text, maxBytes));
    const budget = maxBytes - markerBudget;
    const headBudget = Math.floor(budget * headRatio);
    const head = text.slice(0, prefixEnd(text, headBudget));
    const tail = text.slice(suffixStart(text, budget - headBudget));
    const omitted = total - utf8ByteLength(head) - utf8ByteLength(tail);
    return head + truncationMarker(omitted) + tail;
}
/**
 * The head of `text` within `maxBytes`, followed by `marker` when cut
 * (the marker counts toward the limit). Used for excerpts whose beginning
 * matters most, such as an existing skill's body.
 */
function truncateHead(text, maxBytes, marker = '\n...[truncated]') {
    assertByteLimit(maxBytes);
    if (utf8ByteLength(text) <= maxBytes)
        return text;
    const markerBytes = utf8ByteLength(marker);
    if (maxBytes <= markerBytes)
        return text.slice(0, prefixEnd(text, maxBytes));
    return text.slice(0, prefixEnd(text, maxBytes - markerBytes)) + marker;
}
function assertByteLimit(maxBytes) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0)
        throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
}
function codeUnitWidth(text, i) {
    const c = text.charCodeAt(i);
    if (c < 0x80)
        return { units: 1, bytes: 1 };
    if (c < 0x800)
        return { units: 1, bytes: 2 };
    if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1)))
        return { units: 2, bytes: 4 };
    return { units: 1, bytes: 3 };
}
function isHighSurrogate(c) {
    return c >= 0xd800 && c <= 0xdbff;
}
function isLowSurrogate(c) {
    return c >= 0xdc00 && c <= 0xdfff;
}
//# sourceMappingURL=bounding.js.map