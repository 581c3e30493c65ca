"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RollbackRequestSchema = exports.ApprovalDecisionSchema = void 0;
const zod_1 = require("zod");
const scope_1 = require("./scope");
/** An approver's verdict on a held revision (the `decide` signal / `decideWithAnswer` update). */
exports.ApprovalDecisionSchema = zod_1.z.object({
    decision: zod_1.z.enum(['approve', 'reject']),
    reviewer: zod_1.z.string().trim().min(1, 'a reviewer name is required').refine((r) => r !== 'auto-expire', 'reviewer "auto-expire" is reserved for the approval timeout'),
    comment: zod_1.z.string().max(4000).optional(),
});
/** Input of the rollback workflow. */
exports.RollbackRequestSchema = zod_1.z.object({
    scopeKey: scope_1.ScopeKeySchema,
    skillId: zod_1.z.string().min(1),
    targetRevisionId: zod_1.z.string().min(1).optional(),
    reviewer: zod_1.z.string().trim().min(1, 'a reviewer name is required'),
    comment: zod_1.z.string().max(4000).optional(),
});
//# sourceMappingURL=approval.js.map