"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rollbackWorkflow = rollbackWorkflow;
const workflow_1 = require("@temporalio/workflow");
const workflow_inputs_1 = require("../core/workflow-inputs");
const input_guard_1 = require("./input-guard");
const retry_policies_1 = require("./retry-policies");
const operations_1 = require("../core/publication/operations");
const scope_index_1 = require("./scope-index");
const { rollbackSkill } = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: retry_policies_1.storageRetry });
/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
async function rollbackWorkflow(input) {
    (0, input_guard_1.requireValidInput)('rollback', (0, workflow_inputs_1.checkRollbackInput)(input));
    const indexed = (0, scope_index_1.indexAcks)();
    const { indexSeq, ...result } = await rollbackSkill({ ...input, at: new Date().toISOString(), opId: (0, operations_1.operationId)((0, workflow_1.workflowInfo)().workflowId, 'rollback') });
    await indexed.until(input.skillId, indexSeq, '30 seconds');
    return result;
}
//# sourceMappingURL=rollback.js.map