"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.JobOutcomeSchema = void 0;
const zod_1 = require("zod");
const schemas_1 = require("../schemas");
/**
 * The learning job's result (workflow result of `learningJobWorkflow`, stored at
 * `scopes/{scopeKey}/jobs/{jobId}.json`), as published JSON Schema. Kept equal to the
 * `JobOutcome` type by the compile-time check below.
 */
exports.JobOutcomeSchema = zod_1.z.object({
    jobId: zod_1.z.string().describe('The job workflow id: learning/{scopeKey}/{sessionId}/{segmentId}.'),
    scopeKey: schemas_1.ScopeKeySchema,
    sessionId: zod_1.z.string(),
    status: zod_1.z.enum(['policy_skipped', 'reviewer_skipped', 'reviewer_failed', 'quarantined', 'reviewed']),
    reason: zod_1.z.string(),
    deltaEvents: zod_1.z.number().int().nonnegative().describe('Events reviewed: those after the session cursor.'),
    cursorAdvanced: zod_1.z.boolean(),
    revisions: zod_1.z.array(zod_1.z.object({
        revisionId: zod_1.z.string(),
        skillId: zod_1.z.string(),
        name: zod_1.z.string(),
        action: schemas_1.RevisionActionSchema,
        status: schemas_1.RevisionStatusSchema,
        shadowBypassed: zod_1.z.boolean(),
        reasons: zod_1.z.array(zod_1.z.string()),
    })),
    dropped: zod_1.z.array(zod_1.z.object({ name: zod_1.z.string(), list: zod_1.z.enum(['creates', 'updates', 'deletions']), reason: zod_1.z.string() })),
    quarantinedAfter: zod_1.z
        .array(zod_1.z.object({ jobId: zod_1.z.string(), reason: zod_1.z.string(), at: zod_1.z.string() }))
        .optional()
        .describe('Status quarantined: the failed reviews (jobs) after which this delta was stepped over.'),
});
// If JobOutcome changes, this line fails to compile: update JobOutcomeSchema (and `npm run schemas`).
const _schemaMatchesType = true;
void _schemaMatchesType;
//# sourceMappingURL=job-outcome-schema.js.map