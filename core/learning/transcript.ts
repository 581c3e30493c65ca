import type { ExistingSkill } from '../schemas/review';
import { messageText, type SessionEvent } from '../schemas/session';
import { boundText, boundThrough, truncateHead, utf8ByteLength } from '../skills/bounding';
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

/** Redacted, then bounded; a long text is cut to a few times its budget before redaction (core/skills/bounding boundThrough). */
const clean = (text: string, maxBytes: number) => boundThrough(text, maxBytes, redactSecrets);

/**
 * Messages are cleaned (redacted and bounded) lazily, from both ends: the middle that does
 * not fit the total budget is never redacted, so the work per job follows the budgets, not
 * the size of the session.
 */
export function buildTranscript(events: readonly SessionEvent[], options: TranscriptOptions = {}): Transcript {
  const maxMessageBytes = options.maxMessageBytes ?? TRANSCRIPT_DEFAULTS.maxMessageBytes;
  const maxArgumentBytes = options.maxArgumentBytes ?? TRANSCRIPT_DEFAULTS.maxArgumentBytes;
  const maxTotalBytes = options.maxTotalBytes ?? TRANSCRIPT_DEFAULTS.maxTotalBytes;
  const maxNameBytes = options.maxNameBytes ?? TRANSCRIPT_DEFAULTS.maxNameBytes;
  const cleanName = (name: string) => clean(name.trim(), maxNameBytes);

  // First pass, no redaction: which events become messages, and each tool result's tool name.
  const toolNames = new Map<string, string>();
  const kept: Array<{ event: SessionEvent; toolName?: string }> = [];
  for (const event of events) {
    if (!options.includeSystem && (event.role === 'system' || event.role === 'developer')) continue;
    for (const call of event.tool_calls ?? []) if (call.id) toolNames.set(call.id, call.function.name);
    const toolName = event.role === 'tool' ? ((event.tool_call_id !== undefined ? toolNames.get(event.tool_call_id) : undefined) ?? event.name) : undefined;
    const hasName = toolName !== undefined && toolName.trim() !== '';
    if (messageText(event).trim() === '' && !event.tool_calls?.length && !hasName) continue;
    kept.push({ event, ...(hasName ? { toolName } : {}) });
  }

  const cleaned = new Map<number, { message: TranscriptMessage; bytes: number }>();
  const cleanAt = (i: number) => {
    let done = cleaned.get(i);
    if (!done) {
      const { event, toolName } = kept[i]!;
      const message: TranscriptMessage = { role: event.role, content: clean(messageText(event).trim(), maxMessageBytes) };
      if (toolName !== undefined) message.toolName = cleanName(toolName);
      let bytes = utf8ByteLength(message.content) + 32;
      if (event.tool_calls?.length) {
        message.toolCalls = [];
        for (const c of event.tool_calls) {
          if (bytes > maxTotalBytes) break; // too big to be kept whatever its remaining calls hold
          const call = { name: cleanName(c.function.name), arguments: clean(c.function.arguments.trim(), maxArgumentBytes) };
          message.toolCalls.push(call);
          bytes += utf8ByteLength(call.name) + utf8ByteLength(call.arguments);
        }
      }
      done = { message, bytes };
      cleaned.set(i, done);
    }
    return done;
  };

  // Everything fits: stop cleaning as soon as it does not.
  let total = 0;
  let i = 0;
  for (; i < kept.length && total <= maxTotalBytes; i++) total += cleanAt(i).bytes;
  if (i === kept.length && total <= maxTotalBytes) return { messages: kept.map((_, k) => cleanAt(k).message) };

  // Keep the first and last messages (the task and how it ended) within half the budget each.
  const half = Math.floor(maxTotalBytes / 2);
  let head = 0;
  for (let used = 0; head < kept.length && used + cleanAt(head).bytes <= half; head++) used += cleanAt(head).bytes;
  let tail = kept.length;
  for (let used = 0; tail > head && used + cleanAt(tail - 1).bytes <= half; tail--) used += cleanAt(tail - 1).bytes;
  const pick = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => cleanAt(from + k).message);
  return { messages: [...pick(0, head), ...pick(tail, kept.length)], omitted: { atIndex: head, count: tail - head } };
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
