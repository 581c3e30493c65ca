import { messageText, type ChatRequest } from './chat-request';
import { HttpError } from './http-util';
import { checkAgainstSchema } from './json-schema-check';
import { agentTurn, type AgentToolCall } from './agent';
import { reflect } from './reflector';
import { consolidate } from './consolidator';
import { review } from './reviewer';
import { judge } from './judge';
import type { Role } from './roles';
import { looseReflection, looseReviewDecision, looseText, type AnswerStyle } from './answer-style';

export interface Answer {
  content: string | null;
  /** The agent's tool call (the evaluation agent only); content is then null. */
  toolCall?: AgentToolCall;
  /** Stats key: session key for the reviewer, skill name for the reflector. */
  statsKey?: string;
}

const PLAIN_TEXT_ANSWER =
  'This is the local deterministic model stand-in. It answers only skill-reviewer (json_schema "review_decision") ' +
  'and skill-reflector (json_schema "reflection") requests; see infra/model-server/README.md.';

/** Computes the deterministic answer for a validated request; throws HttpError on contract violations. */
export function answerFor(role: Role, request: ChatRequest, style: AnswerStyle = 'strict'): Answer {
  const userPrompt = request.messages
    .filter((m) => m.role === 'user')
    .map(messageText)
    .join('\n\n');

  switch (role) {
    case 'reviewer': {
      const { decision, sessionKey } = review(userPrompt);
      if (style !== 'strict') return { content: looseText(looseReviewDecision(decision), 'review decision'), statsKey: sessionKey };
      return { content: conformingJson(decision, request), statsKey: sessionKey };
    }
    case 'reflector': {
      const { reflection, skillName } = reflect(userPrompt);
      if (style !== 'strict') return { content: looseText(looseReflection(reflection), 'rewritten component'), statsKey: skillName };
      return { content: conformingJson(reflection, request), statsKey: skillName };
    }
    case 'consolidator': {
      const { consolidation, skillName } = consolidate(userPrompt);
      if (style !== 'strict') return { content: looseText(consolidation, 'merged skill'), statsKey: skillName };
      return { content: conformingJson(consolidation, request), statsKey: skillName };
    }
    case 'judge': {
      const judgement = judge(userPrompt);
      return { content: style === 'strict' ? conformingJson(judgement, request) : looseText(judgement, 'judgement') };
    }
    case 'agent': {
      const turn = agentTurn(request);
      return turn.kind === 'tool_call' ? { content: null, toolCall: turn.call } : { content: turn.content };
    }
    case 'other':
      return {
        content: request.response_format?.type === 'json_object' ? JSON.stringify({ answer: PLAIN_TEXT_ANSWER }) : PLAIN_TEXT_ANSWER,
      };
  }
}

function conformingJson(value: unknown, request: ChatRequest): string {
  const format = request.response_format;
  const schema = format?.type === 'json_schema' ? format.json_schema.schema : undefined;
  if (schema) {
    const violation = checkAgainstSchema(value, schema);
    if (violation) {
      throw new HttpError(
        500,
        `model-server bug: its own answer does not conform to response_format "${format?.type === 'json_schema' ? format.json_schema.name : ''}" ` +
          `at ${violation.path}: ${violation.message}`,
        'server_error',
        'nonconforming_answer',
      );
    }
  }
  return JSON.stringify(value);
}
