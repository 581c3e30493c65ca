"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.canonicalJson = canonicalJson;
exports.sameJson = sameJson;
/** JSON with object keys sorted at every level: equal values give equal strings. */
function canonicalJson(value) {
    return JSON.stringify(value, (_key, v) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v))
            return v;
        return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    });
}
function sameJson(a, b) {
    return canonicalJson(a) === canonicalJson(b);
}
//# sourceMappingURL=canonical-json.js.map