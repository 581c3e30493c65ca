"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Stats = void 0;
class Stats {
    data = Stats.empty();
    static empty() {
        return {
            chatRequests: 0,
            byRole: { reviewer: 0, reflector: 0, other: 0 },
            bySession: {},
            bySkill: {},
            faults: { malformed: 0, http500: 0, slow: 0 },
            rejected: 0,
        };
    }
    recordChat(role, key, fault) {
        this.data.chatRequests += 1;
        this.data.byRole[role] += 1;
        if (key !== undefined) {
            const bucket = role === 'reflector' ? this.data.bySkill : this.data.bySession;
            bucket[key] = (bucket[key] ?? 0) + 1;
        }
        if (fault)
            this.data.faults[fault] += 1;
    }
    recordRejected() {
        this.data.rejected += 1;
    }
    snapshot() {
        return structuredClone(this.data);
    }
    reset() {
        this.data = Stats.empty();
    }
}
exports.Stats = Stats;
//# sourceMappingURL=stats.js.map