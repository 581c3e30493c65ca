"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseDuration = parseDuration;
/** Parses "90s", "30m", "72h", "3d", "1500ms" into milliseconds; undefined for "", "none", "0". */
function parseDuration(text) {
    const t = text.trim().toLowerCase();
    if (t === '' || t === 'none' || t === 'off' || t === '0')
        return undefined;
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(t);
    if (!m)
        throw new Error(`"${text}" is not a duration (use e.g. 1500ms, 90s, 30m, 72h, 3d, or "none")`);
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]];
    return Math.round(Number(m[1]) * unit);
}
//# sourceMappingURL=duration.js.map