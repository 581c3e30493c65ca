import { messageText, type Outcome, type OutcomeStatus, type SessionEvent } from '../schemas/session';
import { parseSkillLoadMarker } from './skill-load-marker';

/** The tool an agent loads a skill body with (client/skill-load-tool.ts). */
export const SKILL_LOAD_TOOL = 'skill_load';
/** At most this many distinct loads are attributed per session segment (a runaway agent cannot grow the record). */
export const MAX_LOADS_PER_SESSION = 50;

/**
 * One skill the agent loaded: by revision when the tool result names it, else only by the
 * name it asked for (an older `skill_load`, or another platform's tool); the aggregator then
 * attributes it to the revision live under that name.
 */
export interface SkillLoad {
  name: string;
  skillId?: string;
  revisionId?: string;
  scopeKey?: string;
}

/** What one learning job contributes to its scope's usage counters: small, bounded, in workflow history. */
export interface SessionUsage {
  /** The learning job (one session segment): the unit counted, and the key that makes counting idempotent. */
  jobId: string;
  /** The agent session: with a canary live, its cohort (core/rollout cohortOf) says which revision it was offered. */
  sessionId?: string;
  outcome?: OutcomeStatus;
  score?: number;
  tokens?: number;
  loads: SkillLoad[];
}

/**
 * Which skills (and revisions) the agent loaded in these events: every successful
 * `skill_load` tool result (a tool message answering a `skill_load` call, or named
 * `skill_load`), distinct by revision, else by name. Results that are errors load nothing.
 */
export function attributeSession(jobId: string, events: readonly SessionEvent[], outcome: Outcome | undefined, sessionId?: string): SessionUsage {
  const skillLoadCalls = new Map<string, string>(); // tool_call_id → the name asked for
  for (const e of events) {
    if (e.role !== 'assistant') continue;
    for (const call of e.tool_calls ?? []) if (call.function.name === SKILL_LOAD_TOOL && call.id) skillLoadCalls.set(call.id, askedName(call.function.arguments));
  }
  const loads = new Map<string, SkillLoad>();
  for (const e of events) {
    if (e.role !== 'tool' || loads.size >= MAX_LOADS_PER_SESSION) continue;
    const asked = e.tool_call_id !== undefined ? skillLoadCalls.get(e.tool_call_id) : undefined;
    if (asked === undefined && e.name !== SKILL_LOAD_TOOL) continue;
    const text = messageText(e);
    if (/^\s*error:/i.test(text)) continue;
    const ref = parseSkillLoadMarker(text);
    if (ref) loads.set(`revision:${ref.revisionId}`, ref);
    else if (asked) loads.set(`name:${asked.toLowerCase()}`, { name: asked });
  }
  return {
    jobId,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(outcome
      ? { outcome: outcome.status, ...(outcome.score !== undefined ? { score: outcome.score } : {}), ...(outcome.tokens !== undefined ? { tokens: outcome.tokens } : {}) }
      : {}),
    loads: [...loads.values()],
  };
}

function askedName(argumentsJson: string): string {
  try {
    const args = JSON.parse(argumentsJson) as { name?: unknown };
    return typeof args?.name === 'string' ? args.name.trim().slice(0, 512) : '';
  } catch {
    return '';
  }
}
