import type { RollbackRequest } from '../schemas/approval';
import type { RollbackResult } from '../governance/types';

export type { RollbackResult };

/** Durable rollback of one skill (workflows/rollback.ts). */
export const ROLLBACK_WORKFLOW = 'rollbackWorkflow';
/** A chosen archived revision (`targetRevisionId`), or by default the latest archived one. */
export type RollbackInput = RollbackRequest;
export type RollbackWorkflow = (input: RollbackInput) => Promise<RollbackResult>;
