"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rollbackSkill = rollbackSkill;
const client_1 = require("@temporalio/client");
const node_crypto_1 = require("node:crypto");
const core_1 = require("../core");
const workflows_1 = require("../workflows");
const errors_1 = require("./errors");
/** Rolls a skill back (to the latest archived revision, or a chosen one) through a durable workflow. */
async function rollbackSkill(deps, input) {
    if (!input.reviewer?.trim())
        throw new errors_1.InputError('a reviewer name is required for a rollback');
    try {
        return await deps.client.workflow.execute(workflows_1.rollbackWorkflow, {
            taskQueue: deps.config.temporal.taskQueue,
            workflowId: `rollback/${input.scopeKey}/${input.skillId}/${(0, node_crypto_1.randomUUID)()}`,
            // The comment goes into workflow history and the audit trail: credentials never do.
            args: [{ ...input, ...(input.comment !== undefined ? { comment: (0, core_1.redactSecrets)(input.comment) } : {}) }],
            searchAttributes: { EvolutionScopeKey: [input.scopeKey], EvolutionSkillId: [input.skillId], EvolutionKind: ['rollback'] },
        });
    }
    catch (e) {
        // Surface the activity's own message ("no archived revision …") rather than the wrapper's.
        if (e instanceof client_1.WorkflowFailedError) {
            let cause = e.cause;
            while (cause?.cause)
                cause = cause.cause;
            throw new errors_1.StateError(cause?.message ?? e.message);
        }
        throw e;
    }
}
//# sourceMappingURL=rollback.js.map