import { z } from 'zod';
import { ApprovalDecisionSchema, EvaluateActivityInputSchema, EvaluateActivityOutputSchema, ExperimentRequestSchema, LearningJobRequestSchema, RollbackRequestSchema, SegmentSchema, SessionEventsSchema } from '../core';

/**
 * The JSON Schemas we publish (generated from the zod schemas) so platforms in any
 * language can call us: what each workflow, signal and update takes.
 */
export const PUBLISHED_SCHEMAS: Record<string, { schema: z.ZodType; title: string; description: string }> = {
  'learning-job-request': {
    schema: LearningJobRequestSchema,
    title: 'LearningJobRequest',
    description: 'What a platform submits when a session segment finishes (client startLearningJob / `evolution learn`). `events` are the session messages so far (OpenAI Chat Completions messages, optional ISO timestamp each); or `payloadRef` to events already stored at payloads/{sha256}.',
  },
  'session-segment': {
    schema: SegmentSchema,
    title: 'Segment',
    description: 'Signal `submitSegment` of workflow `sessionWorkflow` (id session/{scopeKey}/{sessionId}, signal-with-start, task queue EVOLUTION_TASK_QUEUE). Events are claim-checked: put them at payloads/{sha256} first.',
  },
  'session-events': { schema: SessionEventsSchema, title: 'SessionEvents', description: 'A session transcript: OpenAI Chat Completions messages with an optional ISO-8601 `timestamp` each.' },
  'approval-decision': {
    schema: ApprovalDecisionSchema,
    title: 'ApprovalDecision',
    description: 'Signal `decide` or update `decideWithAnswer` of workflow `approvalWorkflow` (id approval/{revisionId}).',
  },
  'rollback-request': { schema: RollbackRequestSchema, title: 'RollbackRequest', description: 'Input of workflow `rollbackWorkflow`.' },
  'experiment-request': {
    schema: ExperimentRequestSchema,
    title: 'ExperimentRequest',
    description: 'The request of a GEPA experiment (`evolution optimize --request FILE`). Workflow `experimentWorkflow` (id experiment/{experimentId}) takes one argument {"request": ExperimentRequest}.',
  },
  'evaluate-activity-input': {
    schema: EvaluateActivityInputSchema,
    title: 'EvaluateActivityInput',
    description: 'What the evaluator activity `evaluateCandidate` receives on the evaluator task queue (see docs/evaluator-contract.md).',
  },
  'evaluate-activity-output': { schema: EvaluateActivityOutputSchema, title: 'EvaluateActivityOutput', description: 'What the evaluator activity returns: one evaluation per case, score finite in [0,1].' },
};

export function renderSchema(name: string): string {
  const entry = PUBLISHED_SCHEMAS[name]!;
  const json = z.toJSONSchema(entry.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...json, $id: `https://skill-evolution.local/schemas/${name}.schema.json`, title: entry.title, description: entry.description }, null, 2)}\n`;
}
