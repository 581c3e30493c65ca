"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PUBLISHED_SCHEMAS = void 0;
exports.renderSchema = renderSchema;
const zod_1 = require("zod");
const core_1 = require("../core");
const governance_1 = require("../core/governance");
/**
 * The JSON Schemas we publish (generated from the zod schemas) so platforms in any
 * language can call us: what each workflow, signal and update takes.
 */
exports.PUBLISHED_SCHEMAS = {
    'learning-job-request': {
        schema: core_1.LearningJobRequestSchema,
        title: 'LearningJobRequest',
        description: 'What a platform submits when a session segment finishes (client startLearningJob / `evolution learn`). `events` are the session messages so far (OpenAI Chat Completions messages, optional ISO timestamp each); or `payloadRef` to events already stored at payloads/{sha256}.',
    },
    'session-segment': {
        schema: core_1.SegmentSchema,
        title: 'Segment',
        description: 'Signal `submitSegment` of workflow `sessionWorkflow` (id session/{scopeKey}/{sessionId}, signal-with-start, task queue EVOLUTION_TASK_QUEUE). Events are claim-checked: put them at payloads/{sha256} first.',
    },
    'session-events': { schema: core_1.SessionEventsSchema, title: 'SessionEvents', description: 'A session transcript: OpenAI Chat Completions messages with an optional ISO-8601 `timestamp` each.' },
    'approval-decision': {
        schema: core_1.ApprovalDecisionSchema,
        title: 'ApprovalDecision',
        description: 'Signal `decide` or update `decideWithAnswer` of workflow `approvalWorkflow` (id approval/{revisionId}).',
    },
    'rollback-request': { schema: core_1.RollbackRequestSchema, title: 'RollbackRequest', description: 'Input of workflow `rollbackWorkflow`.' },
    'experiment-request': {
        schema: core_1.ExperimentRequestSchema,
        title: 'ExperimentRequest',
        description: 'The request of a GEPA experiment (`evolution optimize --request FILE`). Workflow `experimentWorkflow` (id experiment/{experimentId}) takes one argument {"request": ExperimentRequest}.',
    },
    'evaluate-activity-input': {
        schema: core_1.EvaluateActivityInputSchema,
        title: 'EvaluateActivityInput',
        description: 'What the evaluator activity `evaluateCandidate` receives on the evaluator task queue (see docs/evaluator-contract.md).',
    },
    'session-workflow-start': {
        schema: core_1.SessionWorkflowStartSchema,
        title: 'SessionWorkflowStart',
        description: 'The one argument of workflow `sessionWorkflow` in the signal-with-start that submits a segment (see docs/platform-contract.md).',
    },
    'job-outcome': {
        schema: governance_1.JobOutcomeSchema,
        title: 'JobOutcome',
        description: 'The result of workflow `learningJobWorkflow` (id learning/{scopeKey}/{sessionId}/{segmentId}), also stored at scopes/{scopeKey}/jobs/{jobId}.json.',
        io: 'output',
    },
    'experiment-result': {
        schema: core_1.ExperimentResultSchema,
        title: 'ExperimentResult',
        description: 'The result of workflow `experimentWorkflow` (id experiment/{experimentId}), as `evolution optimize --wait --json` prints it under "result".',
        io: 'output',
    },
    'evaluate-activity-output': { schema: core_1.EvaluateActivityOutputSchema, title: 'EvaluateActivityOutput', description: 'What the evaluator activity returns: one evaluation per case, score finite in [0,1].' },
};
function renderSchema(name) {
    const entry = exports.PUBLISHED_SCHEMAS[name];
    const json = zod_1.z.toJSONSchema(entry.schema, { io: entry.io ?? 'input', unrepresentable: 'any' });
    return `${JSON.stringify({ ...json, $id: `https://skill-evolution.local/schemas/${name}.schema.json`, title: entry.title, description: entry.description }, null, 2)}\n`;
}
//# sourceMappingURL=json-schemas.js.map