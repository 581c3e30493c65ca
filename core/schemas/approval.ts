import { z } from 'zod';
import { ScopeKeySchema } from './scope';

/** An approver's verdict on a held revision (the `decide` signal / `decideWithAnswer` update). */
export const ApprovalDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject']),
  reviewer: z.string().trim().min(1, 'a reviewer name is required').refine((r) => r !== 'auto-expire', 'reviewer "auto-expire" is reserved for the approval timeout'),
  comment: z.string().max(4000).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** Input of the rollback workflow. */
export const RollbackRequestSchema = z.object({
  scopeKey: ScopeKeySchema,
  skillId: z.string().min(1),
  targetRevisionId: z.string().min(1).optional(),
  reviewer: z.string().trim().min(1, 'a reviewer name is required'),
  comment: z.string().max(4000).optional(),
});
export type RollbackRequest = z.infer<typeof RollbackRequestSchema>;
