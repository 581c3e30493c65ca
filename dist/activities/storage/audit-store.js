"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditStore = auditStore;
const core_1 = require("../../core");
const errors_1 = require("./errors");
const input_1 = require("./input");
const keys_1 = require("./keys");
const map_limit_1 = require("./map-limit");
/**
 * Append-only audit log, one object per event, keyed by time then event id. Writing is
 * create-only and the key is a function of the event (its `at` must come from the
 * workflow, not the clock), so a retried append finds its own object and succeeds.
 */
function auditStore(objects) {
    async function appendAudit(input) {
        const event = (0, input_1.parseInput)(core_1.AuditEventSchema, input, `audit event ${String(input?.id)}`);
        const key = (0, keys_1.auditKey)(event.scopeKey, event.skillId, event.at, event.id);
        try {
            await objects.putCreateOnly(key, event);
            return { key, written: true };
        }
        catch (error) {
            if (error instanceof errors_1.PreconditionConflictError)
                return { key, written: false };
            throw error;
        }
    }
    /** One event by its time and id (a retried operation reads the log entry its first attempt wrote). */
    async function readAudit(scopeKey, skillId, at, id) {
        return (await objects.getJson((0, keys_1.auditKey)(scopeKey, skillId, at, id), core_1.AuditEventSchema))?.value;
    }
    /** In time order; events of one time in lifecycle order (recorded, held/rejected, decided, archived, shadow note), then by id. */
    async function listAudit(scopeKey, skillId) {
        const keys = await objects.list((0, keys_1.auditPrefix)(scopeKey, skillId));
        const events = await (0, map_limit_1.mapLimit)(keys, 8, async (key) => (await objects.getJson(key, core_1.AuditEventSchema))?.value);
        const rank = (a) => (a === 'write_revision' ? 0 : a === 'hold' || a === 'reject' ? 1 : a === 'shadow_bypass' ? 3 : 2);
        return events
            .filter((e) => e !== undefined)
            .sort((a, b) => (Date.parse(a.at) - Date.parse(b.at)) || rank(a.action) - rank(b.action) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    return { appendAudit, readAudit, listAudit };
}
//# sourceMappingURL=audit-store.js.map