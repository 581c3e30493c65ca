import { z } from 'zod';
import {
  ApprovalDecisionSchema,
  EvaluateActivityInputSchema,
  EvaluateActivityOutputSchema,
  EvaluatorDescriptionSchema,
  ExperimentRequestSchema,
  ExperimentResultSchema,
  LearningJobRequestSchema,
  RollbackRequestSchema,
  SegmentSchema,
  SessionEventsSchema,
  SessionWorkflowStartSchema,
} from '../core';
import { JobOutcomeSchema } from '../core/governance';

/**
 * The JSON Schemas we publish (generated from the zod schemas) so platforms in any
 * language can call us: what each workflow, signal and update takes.
 */
export const PUBLISHED_SCHEMAS: Record<string, { schema: z.ZodType; title: string; description: string; io?: 'input' | 'output' }> = {
  'learning-job-request': {
    schema: LearningJobRequestSchema,
    title: 'LearningJobRequest',
    description:
      'What a platform submits when a session segment finishes (client startLearningJob / `evolution learn`). `events` are the session messages so far (OpenAI Chat Completions messages, optional ISO timestamp each); or `payloadRef` to events already stored at payloads/{sha256}.',
  },
  'session-segment': {
    schema: SegmentSchema,
    title: 'Segment',
    description:
      'Signal `submitSegment` of workflow `sessionWorkflow` (id session/{scopeKey}/{sessionId}, signal-with-start, task queue EVOLUTION_TASK_QUEUE). Events are claim-checked: put them at payloads/{sha256} first.',
  },
  'session-events': {
    schema: SessionEventsSchema,
    title: 'SessionEvents',
    description: 'A session transcript: OpenAI Chat Completions messages with an optional ISO-8601 `timestamp` each.',
  },
  'approval-decision': {
    schema: ApprovalDecisionSchema,
    title: 'ApprovalDecision',
    description: 'Signal `decide` or update `decideWithAnswer` of workflow `approvalWorkflow` (id approval/{revisionId}).',
  },
  'rollback-request': { schema: RollbackRequestSchema, title: 'RollbackRequest', description: 'Input of workflow `rollbackWorkflow`.' },
  'experiment-request': {
    schema: ExperimentRequestSchema,
    title: 'ExperimentRequest',
    description:
      'The request of a GEPA experiment (`evolution optimize --request FILE`). Workflow `experimentWorkflow` (id experiment/{experimentId}) takes one argument {"request": ExperimentRequest}.',
  },
  'evaluate-activity-input': {
    schema: EvaluateActivityInputSchema,
    title: 'EvaluateActivityInput',
    description: 'What the evaluator activity `evaluateCandidate` receives on the evaluator task queue (see docs/evaluator-contract.md).',
  },
  'session-workflow-start': {
    schema: SessionWorkflowStartSchema,
    title: 'SessionWorkflowStart',
    description: 'The one argument of workflow `sessionWorkflow` in the signal-with-start that submits a segment (see docs/platform-contract.md).',
  },
  'job-outcome': {
    schema: JobOutcomeSchema,
    title: 'JobOutcome',
    description:
      'The result of workflow `learningJobWorkflow` (id learning/{scopeKey}/{sessionId}/{segmentId}), also stored at jobs/{scopeTag}/{jobTag}.json (docs/design.md, object storage layout).',
    io: 'output',
  },
  'experiment-result': {
    schema: ExperimentResultSchema,
    title: 'ExperimentResult',
    description: 'The result of workflow `experimentWorkflow` (id experiment/{experimentId}), as `evolution optimize --wait --json` prints it under "result".',
    io: 'output',
  },
  'evaluate-activity-output': {
    schema: EvaluateActivityOutputSchema,
    title: 'EvaluateActivityOutput',
    description: 'What the evaluator activity returns: one evaluation per case, score finite in [0,1]; optional tokens and costUsd count against maxTokens / maxCostUsd.',
  },
  'evaluator-description': {
    schema: EvaluatorDescriptionSchema,
    title: 'EvaluatorDescription',
    description:
      'What the optional activity `describeEvaluator` (no input, on the evaluator task queue) returns: the versions an evaluation depends on. Evaluations are cached, and optimized revisions re-certified, by these versions.',
    io: 'output',
  },
};

export function renderSchema(name: string): string {
  const entry = PUBLISHED_SCHEMAS[name]!;
  const json = z.toJSONSchema(entry.schema, { io: entry.io ?? 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...json, $id: `https://skill-evolution.local/schemas/${name}.schema.json`, title: entry.title, description: entry.description }, null, 2)}\n`;
}
