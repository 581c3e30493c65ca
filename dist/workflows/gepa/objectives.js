"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.objectiveMeans = objectiveMeans;
/** Mean of every objective over the evaluations that report it, names sorted (pure). */
function objectiveMeans(evaluations) {
    const sums = new Map();
    for (const e of evaluations) {
        for (const [name, value] of Object.entries(e.objectives ?? {})) {
            const s = sums.get(name) ?? { total: 0, n: 0 };
            sums.set(name, { total: s.total + value, n: s.n + 1 });
        }
    }
    return Object.fromEntries([...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, s]) => [name, s.total / s.n]));
}
//# sourceMappingURL=objectives.js.map