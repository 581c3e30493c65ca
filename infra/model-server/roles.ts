import { HttpError } from './http-util';
import { messageText, type ChatRequest } from './chat-request';

export type Role = 'reviewer' | 'reflector' | 'consolidator' | 'agent' | 'judge' | 'other';

const ROLE_BY_SCHEMA_NAME: Record<string, Role> = { review_decision: 'reviewer', reflection: 'reflector', skill_consolidation: 'consolidator', evaluation_judgement: 'judge' };
const ROLE_BY_SYSTEM_LINE: [string, Role][] = [
  ['ROLE: skill-reviewer', 'reviewer'],
  ['ROLE: skill-reflector', 'reflector'],
  ['ROLE: skill-consolidator', 'consolidator'],
  ['ROLE: evaluation-agent', 'agent'],
  ['ROLE: evaluation-judge', 'judge'],
];

/** The json_schema name decides; without one, the first system message's `ROLE:` line does. */
export function detectRole(request: ChatRequest): Role {
  const format = request.response_format;
  const schemaName = format?.type === 'json_schema' ? format.json_schema.name : undefined;
  if (schemaName !== undefined && ROLE_BY_SCHEMA_NAME[schemaName]) return ROLE_BY_SCHEMA_NAME[schemaName];

  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
  const firstLine = system ? messageText(system).trimStart() : '';
  const byLine = ROLE_BY_SYSTEM_LINE.find(([prefix]) => firstLine.startsWith(prefix));
  if (byLine) return byLine[1];

  if (schemaName !== undefined) {
    throw new HttpError(
      400,
      `the local model stand-in only answers json_schema "review_decision", "reflection", "skill_consolidation" or "evaluation_judgement", got "${schemaName}"`,
      'invalid_request_error',
      'unsupported_schema',
      'response_format.json_schema.name',
    );
  }
  return 'other';
}
