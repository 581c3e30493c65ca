"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AuditEventSchema = exports.AuditActionSchema = exports.ActivePointerSchema = exports.TombstonePointerSchema = exports.LivePointerSchema = exports.AppliedOperationSchema = exports.RevisionSchema = exports.StatusChangeSchema = exports.EvidenceSchema = exports.HumanReportSchema = exports.GateReportSchema = exports.RevisionSourceSchema = exports.RevisionActionSchema = exports.RevisionStatusSchema = exports.REVISION_STATUSES = void 0;
exports.isLivePointer = isLivePointer;
const zod_1 = require("zod");
const skill_1 = require("./skill");
const scope_1 = require("./scope");
exports.REVISION_STATUSES = ['pending', 'rejected', 'pending_eval', 'pending_approval', 'active', 'archived'];
exports.RevisionStatusSchema = zod_1.z.enum(exports.REVISION_STATUSES);
exports.RevisionActionSchema = zod_1.z.enum(['create', 'update', 'delete']);
exports.RevisionSourceSchema = zod_1.z.enum(['reviewer', 'gepa', 'rollback', 'manual']);
/** Verdict of one automatic gate; `ran: false` means the gate was skipped (and why is in reasons). */
exports.GateReportSchema = zod_1.z.object({
    gate: zod_1.z.enum(['spec', 'safety', 'effectiveness']),
    ran: zod_1.z.boolean(),
    passed: zod_1.z.boolean(),
    /** Effectiveness only: the outcome asks for evaluation before publication. */
    held: zod_1.z.boolean().default(false),
    reasons: zod_1.z.array(zod_1.z.string()).default([]),
});
exports.HumanReportSchema = zod_1.z.object({
    held: zod_1.z.boolean(),
    reasons: zod_1.z.array(zod_1.z.string()).default([]),
    decision: zod_1.z.enum(['approved', 'rejected']).optional(),
    reviewer: zod_1.z.string().optional(),
    comment: zod_1.z.string().optional(),
    decidedAt: zod_1.z.string().optional(),
});
/** Evidence attached by offline optimization (GEPA) submissions. */
exports.EvidenceSchema = zod_1.z.object({
    experimentId: zod_1.z.string(),
    datasetId: zod_1.z.string(),
    datasetVersion: zod_1.z.string(),
    baselineHoldoutScore: zod_1.z.number(),
    candidateHoldoutScore: zod_1.z.number(),
    delta: zod_1.z.number(),
    caseCount: zod_1.z.number().int(),
    objectives: zod_1.z.array(zod_1.z.string()).default([]),
});
exports.StatusChangeSchema = zod_1.z.object({
    from: exports.RevisionStatusSchema,
    to: exports.RevisionStatusSchema,
    at: zod_1.z.string(),
    reason: zod_1.z.string(),
});
exports.RevisionSchema = zod_1.z.object({
    id: zod_1.z.string().min(1),
    skillId: zod_1.z.string().min(1),
    scopeKey: zod_1.z.string().min(1),
    scope: scope_1.ScopeSchema,
    action: exports.RevisionActionSchema,
    status: exports.RevisionStatusSchema,
    /** Full spec for create/update; for delete, the spec being removed (if known). */
    spec: skill_1.SkillSpecSchema.optional(),
    parentId: zod_1.z.string().optional(),
    source: exports.RevisionSourceSchema,
    /** Job (or experiment) that produced the revision; with the ordinal it determines the id. */
    jobId: zod_1.z.string(),
    reason: zod_1.z.string().default(''),
    gates: zod_1.z.array(exports.GateReportSchema).default([]),
    human: exports.HumanReportSchema.optional(),
    evidence: exports.EvidenceSchema.optional(),
    shadowBypassed: zod_1.z.boolean().default(false),
    createdAt: zod_1.z.string(),
    updatedAt: zod_1.z.string(),
    promotedAt: zod_1.z.string().optional(),
    history: zod_1.z.array(exports.StatusChangeSchema).default([]),
});
/** One operation that moved a pointer: its id (a function of the workflow step that ran it) and what it named. */
exports.AppliedOperationSchema = zod_1.z.object({ opId: zod_1.z.string(), revisionId: zod_1.z.string(), seq: zod_1.z.number().int().nonnegative() });
const pointerFields = {
    skillId: zod_1.z.string(),
    /** The published revision; for a tombstone, the approved delete revision. */
    revisionId: zod_1.z.string(),
    /** Workflow time of the operation that wrote this pointer. */
    publishedAt: zod_1.z.string(),
    managed: zod_1.z.boolean().default(true),
    /** +1 on every move: orders the scope index's changes and bounds retry detection. */
    seq: zod_1.z.number().int().nonnegative().default(0),
    /** The last operations that moved this pointer, newest last (bounded: see RECENT_OPERATIONS). */
    recent: zod_1.z.array(exports.AppliedOperationSchema).default([]),
};
/** A published skill. Pointers written before tombstones existed have no `deleted` field and parse here. */
exports.LivePointerSchema = zod_1.z.object({
    ...pointerFields,
    deleted: zod_1.z.literal(false).default(false),
    spec: skill_1.SkillSpecSchema,
});
/**
 * An approved delete: the pointer is cleared by one conditional PUT of this tombstone
 * (never by deleting the object, which could not be conditional), so its ETag keeps
 * serializing every later change. Readers treat it as "no active skill".
 */
exports.TombstonePointerSchema = zod_1.z.object({
    ...pointerFields,
    deleted: zod_1.z.literal(true),
    /** The spec that was removed, if known (for audit and rollback). */
    spec: skill_1.SkillSpecSchema.optional(),
});
/** The published state of one skill: the only thing agents trust (see DESIGN.md invariant 2). */
exports.ActivePointerSchema = zod_1.z.union([exports.LivePointerSchema, exports.TombstonePointerSchema]);
function isLivePointer(pointer) {
    return pointer !== undefined && !pointer.deleted;
}
exports.AuditActionSchema = zod_1.z.enum([
    'write_revision',
    'reject',
    'hold',
    'promote',
    'archive',
    'delete',
    'rollback',
    'approve',
    'auto_expire',
    'shadow_bypass',
    'stale_parent',
    'import',
]);
/** One append-only audit entry; `id` makes writing it idempotent. */
exports.AuditEventSchema = zod_1.z.object({
    id: zod_1.z.string(),
    at: zod_1.z.string(),
    action: exports.AuditActionSchema,
    skillId: zod_1.z.string(),
    scopeKey: zod_1.z.string(),
    revisionId: zod_1.z.string().optional(),
    status: exports.RevisionStatusSchema.optional(),
    actor: zod_1.z.string().default('system'),
    reason: zod_1.z.string().default(''),
    /** Publication entries: the id of the operation (see core/publication.ts). */
    opId: zod_1.z.string().optional(),
    /** Publication entries: the pointer seq this operation read before moving it (its retry needs it). */
    baseSeq: zod_1.z.number().int().nonnegative().optional(),
});
//# sourceMappingURL=revision.js.map