import type { ExistingSkill } from '../schemas/review';
import { messageText, type SessionEvent } from '../schemas/session';
import { boundText, truncateHead, utf8ByteLength } from '../skills/bounding';
import { redactSecrets } from '../skills/redaction';

/**
 * The reviewer-facing view of a delta. Every text that reaches the model is
 * redacted first (so a secret is never half-cut into an unrecognisable
 * fragment) and then bounded to head+tail.
 */

export interface TranscriptToolCall {
  name: string;
  arguments: string;
}

export interface TranscriptMessage {
  role: SessionEvent['role'];
  content: string;
  /** For tool results: the name of the tool that produced them (resolved from tool_call_id). */
  toolName?: string;
  toolCalls?: TranscriptToolCall[];
}

export interface TranscriptOptions {
  /** Cap per message content, UTF-8 bytes (reference: 4,000 characters). */
  maxMessageBytes?: number;
  /** Cap per tool-call argument string. */
  maxArgumentBytes?: number;
  /** Cap per tool name and message name (a name is a label, not evidence). */
  maxNameBytes?: number;
  /** Cap for the whole transcript; middle messages are dropped beyond it. */
  maxTotalBytes?: number;
  /** Keep system/developer messages (default false: the agent's own prompt is not evidence). */
  includeSystem?: boolean;
}

export interface Transcript {
  messages: TranscriptMessage[];
  /** Messages dropped from the middle to respect maxTotalBytes, and where. */
  omitted?: { atIndex: number; count: number };
}

export const TRANSCRIPT_DEFAULTS = { maxMessageBytes: 4000, maxArgumentBytes: 2000, maxNameBytes: 128, maxTotalBytes: 160_000 } as const;

const clean = (text: string, maxBytes: number) => boundText(redactSecrets(text), maxBytes);

export function buildTranscript(events: readonly SessionEvent[], options: TranscriptOptions = {}): Transcript {
  const maxMessageBytes = options.maxMessageBytes ?? TRANSCRIPT_DEFAULTS.maxMessageBytes;
  const maxArgumentBytes = options.maxArgumentBytes ?? TRANSCRIPT_DEFAULTS.maxArgumentBytes;
  const maxTotalBytes = options.maxTotalBytes ?? TRANSCRIPT_DEFAULTS.maxTotalBytes;
  const maxNameBytes = options.maxNameBytes ?? TRANSCRIPT_DEFAULTS.maxNameBytes;
  const cleanName = (name: string) => clean(name.trim(), maxNameBytes);

  const toolNames = new Map<string, string>();
  const messages: TranscriptMessage[] = [];
  for (const event of events) {
    if (!options.includeSystem && (event.role === 'system' || event.role === 'developer')) continue;
    for (const call of event.tool_calls ?? []) if (call.id) toolNames.set(call.id, call.function.name);

    const message: TranscriptMessage = { role: event.role, content: clean(messageText(event).trim(), maxMessageBytes) };
    if (event.role === 'tool') {
      const name = (event.tool_call_id !== undefined ? toolNames.get(event.tool_call_id) : undefined) ?? event.name;
      if (name) message.toolName = cleanName(name);
    }
    if (event.tool_calls?.length) {
      message.toolCalls = event.tool_calls.map((c) => ({ name: cleanName(c.function.name), arguments: clean(c.function.arguments.trim(), maxArgumentBytes) }));
    }
    if (message.content === '' && !message.toolCalls && !message.toolName) continue;
    messages.push(message);
  }
  return fitTotal(messages, maxTotalBytes);
}

function messageBytes(m: TranscriptMessage): number {
  return utf8ByteLength(m.content) + (m.toolCalls ?? []).reduce((n, c) => n + utf8ByteLength(c.name) + utf8ByteLength(c.arguments), 0) + 32;
}

/** Keep the first and last messages (the task and how it ended) within half the budget each. */
function fitTotal(messages: TranscriptMessage[], maxTotalBytes: number): Transcript {
  const sizes = messages.map(messageBytes);
  if (sizes.reduce((a, b) => a + b, 0) <= maxTotalBytes) return { messages };
  const half = Math.floor(maxTotalBytes / 2);
  let head = 0;
  for (let used = 0; head < messages.length && used + sizes[head] <= half; head++) used += sizes[head];
  let tail = messages.length;
  for (let used = 0; tail > head && used + sizes[tail - 1] <= half; tail--) used += sizes[tail - 1];
  return { messages: [...messages.slice(0, head), ...messages.slice(tail)], omitted: { atIndex: head, count: tail - head } };
}

/** Plain-text rendering for the reviewer prompt. */
export function renderTranscript(transcript: Transcript): string {
  const parts: string[] = [];
  transcript.messages.forEach((m, i) => {
    if (transcript.omitted && transcript.omitted.atIndex === i) parts.push(`[... ${transcript.omitted.count} messages omitted ...]\n`);
    const lines = [`### ${m.role}${m.toolName ? ` (${m.toolName})` : ''}`, m.content === '' ? '(no text)' : m.content];
    if (m.toolCalls?.length) {
      lines.push('Tool calls:');
      for (const c of m.toolCalls) lines.push(`- ${c.name}${c.arguments ? ` args=${c.arguments}` : ''}`);
    }
    parts.push(lines.join('\n') + '\n');
  });
  if (transcript.omitted && transcript.omitted.atIndex >= transcript.messages.length) parts.push(`[... ${transcript.omitted.count} messages omitted ...]\n`);
  return parts.join('\n');
}

export interface ExistingSkillBounds {
  /** Head-only excerpt of each body (reference default: 600 characters). */
  maxExcerptBytes?: number;
  maxDescriptionBytes?: number;
}

/** Existing skills as the reviewer sees them: redacted, description bounded, body excerpt cut to its head. */
export function boundExistingSkills(existing: readonly ExistingSkill[], bounds: ExistingSkillBounds = {}): ExistingSkill[] {
  const maxExcerptBytes = bounds.maxExcerptBytes ?? 600;
  const maxDescriptionBytes = bounds.maxDescriptionBytes ?? 1000;
  return existing.map((skill) => ({
    ...skill,
    description: boundText(redactSecrets(skill.description.trim()), maxDescriptionBytes),
    bodyExcerpt: truncateHead(redactSecrets(skill.bodyExcerpt.trim()), maxExcerptBytes),
  }));
}
