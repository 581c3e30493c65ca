import { z } from 'zod';
import { SkillSpecSchema } from './skill';
import { ScopeSchema } from './scope';

export const REVISION_STATUSES = ['pending', 'rejected', 'pending_eval', 'pending_approval', 'active', 'archived'] as const;
export const RevisionStatusSchema = z.enum(REVISION_STATUSES);
export type RevisionStatus = z.infer<typeof RevisionStatusSchema>;

export const RevisionActionSchema = z.enum(['create', 'update', 'delete']);
export type RevisionAction = z.infer<typeof RevisionActionSchema>;

export const RevisionSourceSchema = z.enum(['reviewer', 'gepa', 'rollback', 'manual', 'curator']);
export type RevisionSource = z.infer<typeof RevisionSourceSchema>;

/** Verdict of one automatic gate; `ran: false` means the gate was skipped (and why is in reasons). */
export const GateReportSchema = z.object({
  gate: z.enum(['spec', 'safety', 'effectiveness']),
  ran: z.boolean(),
  passed: z.boolean(),
  /** Effectiveness only: the outcome asks for evaluation before publication. */
  held: z.boolean().default(false),
  reasons: z.array(z.string()).default([]),
});
export type GateReport = z.infer<typeof GateReportSchema>;

export const HumanReportSchema = z.object({
  held: z.boolean(),
  reasons: z.array(z.string()).default([]),
  /** Held (also) because the candidate is high-risk: shadow mode never publishes it, and an approval timeout never does either. */
  heldForRisk: z.boolean().optional(),
  decision: z.enum(['approved', 'rejected']).optional(),
  reviewer: z.string().optional(),
  comment: z.string().optional(),
  decidedAt: z.string().optional(),
});
export type HumanReport = z.infer<typeof HumanReportSchema>;

/** The risk tier of a candidate, from its diff against the published revision (core/learning/gates/risk.ts). */
export const RiskReportSchema = z.object({
  tier: z.enum(['low', 'high']),
  reasons: z.array(z.string()).default([]),
});

/** Evidence attached by offline optimization (GEPA) submissions. */
export const EvidenceSchema = z.object({
  experimentId: z.string(),
  datasetId: z.string(),
  datasetVersion: z.string(),
  baselineHoldoutScore: z.number(),
  candidateHoldoutScore: z.number(),
  delta: z.number(),
  caseCount: z.number().int(),
  objectives: z.array(z.string()).default([]),
  /**
   * What the Holdout comparison ran on, so it can be re-run when the evaluator or the
   * model changes (re-certification). Absent in evidence of older submissions.
   */
  certifiedWith: z
    .object({
      evaluatorTaskQueue: z.string(),
      evaluatorVersion: z.string().optional(),
      modelVersion: z.string().optional(),
      holdoutSeed: z.number().int(),
      minHoldoutImprovement: z.number().min(0).max(1).default(0),
    })
    .optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** What a curator proposal is (docs/curation.md): shown to the approver beside the held reasons. */
export const CurationNoteSchema = z.object({
  kind: z.enum(['archive', 'revive', 'merge']),
  /** The curator run that proposed it (scope + schedule time). */
  runId: z.string(),
  /** merge: the skills merged into this one; on the absorbed skill's archive, the skill it went into. */
  mergedFrom: z.array(z.string()).optional(),
  mergedInto: z.string().optional(),
  /** merge: items of the sources the merged skill leaves out, each with the reason the approver reads. */
  dropped: z.array(z.object({ source: z.string(), kind: z.enum(['step', 'pitfall']), item: z.string(), reason: z.string() })).optional(),
});
export type CurationNote = z.infer<typeof CurationNoteSchema>;

export const StatusChangeSchema = z.object({
  from: RevisionStatusSchema,
  to: RevisionStatusSchema,
  at: z.string(),
  reason: z.string(),
});

export const RevisionSchema = z.object({
  id: z.string().min(1),
  skillId: z.string().min(1),
  scopeKey: z.string().min(1),
  scope: ScopeSchema,
  action: RevisionActionSchema,
  status: RevisionStatusSchema,
  /** Full spec for create/update; for delete, the spec being removed (if known). */
  spec: SkillSpecSchema.optional(),
  parentId: z.string().optional(),
  source: RevisionSourceSchema,
  /** Job (or experiment) that produced the revision; with the ordinal it determines the id. */
  jobId: z.string(),
  reason: z.string().default(''),
  gates: z.array(GateReportSchema).default([]),
  human: HumanReportSchema.optional(),
  /** Absent on revisions written before risk tiers. */
  risk: RiskReportSchema.optional(),
  evidence: EvidenceSchema.optional(),
  /** Proposed by the curator: what and why. */
  curation: CurationNoteSchema.optional(),
  shadowBypassed: z.boolean().default(false),
  createdAt: z.string(),
  updatedAt: z.string(),
  promotedAt: z.string().optional(),
  history: z.array(StatusChangeSchema).default([]),
});
export type Revision = z.infer<typeof RevisionSchema>;

/** One operation that moved a pointer: its id (a function of the workflow step that ran it) and what it named. */
export const AppliedOperationSchema = z.object({ opId: z.string(), revisionId: z.string(), seq: z.number().int().nonnegative() });
export type AppliedOperation = z.infer<typeof AppliedOperationSchema>;

const pointerFields = {
  skillId: z.string(),
  /** The published revision; for a tombstone, the approved delete revision. */
  revisionId: z.string(),
  /** Workflow time of the operation that wrote this pointer. */
  publishedAt: z.string(),
  managed: z.boolean().default(true),
  /** +1 on every move: orders the scope index's changes and bounds retry detection. */
  seq: z.number().int().nonnegative().default(0),
  /** The last operations that moved this pointer, newest last (bounded: see RECENT_OPERATIONS). */
  recent: z.array(AppliedOperationSchema).default([]),
};

/**
 * A staged rollout: a `fraction` of sessions (by a hash of the session id, core/rollout
 * `cohortOf`) load the candidate revision instead of the pointer's (stable) one. Any other
 * operation on the pointer ends it (it writes no canary).
 */
export const CanarySchema = z.object({
  revisionId: z.string().min(1),
  spec: SkillSpecSchema,
  fraction: z.number().min(0).max(1),
  /** Workflow time the canary began (its first operation). */
  startedAt: z.string(),
});
export type Canary = z.infer<typeof CanarySchema>;

/** A published skill. Pointers written before tombstones existed have no `deleted` field and parse here; pointers without `canary` read as before. */
export const LivePointerSchema = z.object({
  ...pointerFields,
  deleted: z.literal(false).default(false),
  spec: SkillSpecSchema,
  canary: CanarySchema.optional(),
});

/**
 * An approved delete: the pointer is cleared by one conditional PUT of this tombstone
 * (never by deleting the object, which could not be conditional), so its ETag keeps
 * serializing every later change. Readers treat it as "no active skill".
 */
export const TombstonePointerSchema = z.object({
  ...pointerFields,
  deleted: z.literal(true),
  /** The spec that was removed, if known (for audit and rollback). */
  spec: SkillSpecSchema.optional(),
});

/** The published state of one skill: the only thing agents trust (see docs/design.md invariant 2). */
export const ActivePointerSchema = z.union([LivePointerSchema, TombstonePointerSchema]);
export type ActivePointer = z.infer<typeof ActivePointerSchema>;
export type LivePointer = z.infer<typeof LivePointerSchema>;
export type TombstonePointer = z.infer<typeof TombstonePointerSchema>;

export function isLivePointer(pointer: ActivePointer | undefined): pointer is LivePointer {
  return pointer !== undefined && !pointer.deleted;
}

export const AuditActionSchema = z.enum([
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
  'pin',
  'unpin',
  'canary_start',
  'canary_step',
  'canary_promote',
  'canary_rollback',
  'canary_hold',
  'canary_end',
]);

/** One append-only audit entry; `id` makes writing it idempotent. */
export const AuditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  action: AuditActionSchema,
  skillId: z.string(),
  scopeKey: z.string(),
  revisionId: z.string().optional(),
  status: RevisionStatusSchema.optional(),
  actor: z.string().default('system'),
  reason: z.string().default(''),
  /** Publication entries: the id of the operation (see core/publication.ts). */
  opId: z.string().optional(),
  /** Publication entries: the pointer seq this operation read before moving it (its retry needs it). */
  baseSeq: z.number().int().nonnegative().optional(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;
export type AuditAction = z.infer<typeof AuditActionSchema>;
