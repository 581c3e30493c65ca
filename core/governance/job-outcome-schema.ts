import { z } from 'zod';
import { ModelAnswerRecordSchema } from '../llm/repairs';
import { RevisionActionSchema, RevisionStatusSchema, ScopeKeySchema } from '../schemas';
import type { JobOutcome } from './types';
import type { Same } from '../same-type';

/** One failed review of a delta (a job that could not get a usable answer from the reviewer). */
export const ReviewFailureSchema = z.object({ jobId: z.string(), reason: z.string(), at: z.string() });

/**
 * The learning job's result (workflow result of `learningJobWorkflow`, stored at
 * `jobs/{scopeTag}/{jobTag}.json`, storage jobOutcomeKey), as published JSON Schema. Kept equal to the
 * `JobOutcome` type by the compile-time check below.
 */
export const JobOutcomeSchema = z.object({
  jobId: z.string().describe('The job workflow id: learning/{scopeKey}/{sessionId}/{segmentId}.'),
  scopeKey: ScopeKeySchema,
  sessionId: z.string(),
  status: z.enum(['policy_skipped', 'reviewer_skipped', 'reviewer_failed', 'quarantined', 'reviewed']),
  reason: z.string(),
  deltaEvents: z.number().int().nonnegative().describe('Events reviewed: those after the session cursor.'),
  cursorAdvanced: z.boolean(),
  revisions: z.array(
    z.object({
      revisionId: z.string(),
      skillId: z.string(),
      name: z.string(),
      action: RevisionActionSchema,
      status: RevisionStatusSchema,
      shadowBypassed: z.boolean(),
      reasons: z.array(z.string()),
      indexSeq: z
        .number()
        .int()
        .nonnegative()
        .optional()
        .describe("Published by this job: the pointer seq announced to the scope's index; the index includes the publication once it holds this seq."),
    }),
  ),
  dropped: z.array(z.object({ name: z.string(), list: z.enum(['creates', 'updates', 'deletions']), reason: z.string() })),
  quarantinedAfter: z.array(ReviewFailureSchema).optional().describe('Status quarantined: the failed reviews (jobs) after which this delta was stepped over.'),
  reviewerAnswer: ModelAnswerRecordSchema.optional().describe(
    "Reviewed or reviewer_skipped: how the reviewer's answer was obtained (the response format the endpoint accepted, the repairs that made it usable, tokens).",
  ),
});

// If JobOutcome changes, this line fails to compile: update JobOutcomeSchema (and `npm run schemas`).
const _schemaMatchesType: Same<z.output<typeof JobOutcomeSchema>, JobOutcome> = true;
void _schemaMatchesType;
