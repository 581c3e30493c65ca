"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rollbackWorkflow = rollbackWorkflow;
const workflow_1 = require("@temporalio/workflow");
const { rollbackSkill } = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError', 'RollbackError'] },
});
/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
async function rollbackWorkflow(input) {
    return rollbackSkill({ ...input, at: new Date().toISOString() });
}
//# sourceMappingURL=rollback.js.map