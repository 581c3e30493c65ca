/**
 * Deterministic stand-in for the skill REVIEWER model. Same prompt ⇒ same answer.
 *
 * Prompt contract (the reviewer activity writes its prompt to match this):
 *  - Role: `response_format = {type:'json_schema', json_schema:{name:'review_decision', schema}}`,
 *    or (without a json_schema) a first system message starting with `ROLE: skill-reviewer`.
 *  - The user message is Markdown; each section heading is followed by a ```json block:
 *      ## Session           {"app","user","sessionId"}       → stats key `app/user/sessionId` ("-" for a missing part)
 *      ## Transcript        [{role, content, tool_calls?: [{name, arguments}] | [{function:{name, arguments}}],
 *                             tool_call_id?, name?}]           (required)
 *      ## Existing skills   [{name, description, body_excerpt}]
 *      ## Session outcome   {status, score?, notes?}          (optional)
 *    A missing Transcript or a block that is not JSON ⇒ HTTP 400 `prompt_contract_violation`.
 *
 * Answer (JSON in `message.content`):
 *   {skip_reason, creates: SkillSpec[], updates: [{name, new_spec: SkillSpec, reason}], deletions: string[]}
 *   SkillSpec = {name, description, when_to_use, steps: string[], pitfalls: string[]}
 *
 * Rules, applied to the transcript only (never to the existing skills):
 *  - `[[skip]]` anywhere ⇒ skip_reason "skip requested by [[skip]] marker", empty lists.
 *  - `[[delete:NAME]]` anywhere ⇒ NAME in deletions (distinct, in order).
 *  - Assistant tool calls, in order. Fewer than 2 ⇒ no create/update; skip_reason
 *    "no reusable multi-step procedure" unless there are deletions.
 *  - Name: the first `[[skill:NAME]]` wins; else the distinct tool names slugified and
 *    joined with "-and-" (get_weather, geocode ⇒ "get-weather-and-geocode").
 *  - Steps: one per distinct (tool, argument keys), in call order:
 *    "Call `get_weather` with {city, units}." Shell-like tools (name contains shell, exec,
 *    bash, terminal, powershell, run_command, or is cmd/sh) are distinct per literal command
 *    and quote it, bounded to 200 chars: "Call `shell` to run: rm -rf /". That is on purpose:
 *    a dangerous command or secret in the transcript reaches the candidate, for the Safety gate.
 *  - description / when_to_use: from the first user message (markers stripped, ≤160 chars).
 *  - Pitfalls, in this order, distinct:
 *    · a tool result containing error/timeout/failed followed by a later call of the same
 *      tool: "If `tool` fails with \"<first line, ≤100 chars>\", retry the call before giving up."
 *    · a user message after an assistant turn that starts with no/not/wrong/actually/
 *      incorrect/don't/do not/stop, or contains instead/you forgot/should have:
 *      "Remember: <message, ≤200 chars>"
 *    · outcome status fail/agent_error: "A previous run ended with <status>: <notes>"
 *      (without notes: "...; check the result before reporting success.")
 *  - A derived skill whose name equals an existing skill's (case-insensitive) goes to
 *    `updates` as {name: existing name, new_spec, reason: "refined from session <key>"}.
 */
import { z } from 'zod';
import { parseSections, sectionJson, sectionShape } from './prompt-sections';
import { bound, oneLine, stripMarkers, uniqueInOrder } from './text-util';

export interface SkillSpec {
  name: string;
  description: string;
  when_to_use: string;
  steps: string[];
  pitfalls: string[];
}

export interface ReviewDecision {
  skip_reason: string;
  creates: SkillSpec[];
  updates: { name: string; new_spec: SkillSpec; reason: string }[];
  deletions: string[];
}

export interface ReviewResult {
  decision: ReviewDecision;
  sessionKey: string;
}

const ContentSchema = z.union([z.string(), z.array(z.object({ text: z.string().optional() }).loose()), z.null()]).optional();

const ToolCallSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.unknown().optional(),
    function: z.object({ name: z.string(), arguments: z.unknown().optional() }).loose().optional(),
  })
  .loose();

const TranscriptSchema = z.array(
  z
    .object({
      role: z.string(),
      content: ContentSchema,
      tool_calls: z.array(ToolCallSchema).nullable().optional(),
      tool_call_id: z.string().optional(),
      name: z.string().optional(),
    })
    .loose(),
);
type TranscriptEntry = z.infer<typeof TranscriptSchema>[number];

const SessionSchema = z
  .object({
    app: z.string().nullish(),
    user: z.string().nullish(),
    sessionId: z.string().nullish(),
    session_id: z.string().nullish(),
  })
  .loose();

const ExistingSkillsSchema = z.array(z.object({ name: z.string() }).loose());

const OutcomeSchema = z.object({ status: z.string(), score: z.number().nullish(), notes: z.string().nullish() }).loose();

const SHELL_LIKE_TOOL = /shell|exec|bash|terminal|powershell|run_command|^cmd$|^sh$/i;
const ERROR_LIKE = /error|timeout|timed out|failed/i;
const CORRECTION_START = /^(no|not|nope|wrong|actually|incorrect|don't|dont|do not|stop)\b/i;
const CORRECTION_ANYWHERE = /\b(instead|you forgot|should have)\b/i;
const FAILED_OUTCOMES = new Set(['fail', 'agent_error']);

interface ToolCallEvent {
  index: number;
  id?: string;
  name: string;
  argsText: string;
  args: unknown;
}

export function review(userPrompt: string): ReviewResult {
  const sections = parseSections(userPrompt);
  const transcript = sectionShape(TranscriptSchema, sectionJson(sections, 'Transcript', true), 'Transcript');
  const session = parseOptional(SessionSchema, sectionJson(sections, 'Session', false), 'Session');
  const existing = parseOptional(ExistingSkillsSchema, sectionJson(sections, 'Existing skills', false), 'Existing skills') ?? [];
  const outcome = parseOptional(OutcomeSchema, sectionJson(sections, 'Session outcome', false), 'Session outcome');
  const sessionKey = sessionKeyOf(session);

  const markerText = transcriptMarkerText(transcript);
  if (/\[\[skip\]\]/i.test(markerText)) {
    return { sessionKey, decision: emptyDecision('skip requested by [[skip]] marker') };
  }
  const deletions = uniqueInOrder([...markerText.matchAll(/\[\[delete:([^\]\n]+)\]\]/gi)].map((m) => m[1].trim()).filter((n) => n.length > 0));

  const calls = collectToolCalls(transcript);
  if (calls.length < 2) {
    const decision = emptyDecision(deletions.length > 0 ? '' : 'no reusable multi-step procedure');
    decision.deletions = deletions;
    return { sessionKey, decision };
  }

  const spec = deriveSpec(transcript, calls, markerText, outcome);
  const decision = emptyDecision('');
  decision.deletions = deletions;
  const match = existing.find((s) => s.name.trim().toLowerCase() === spec.name.toLowerCase());
  if (match) {
    decision.updates.push({ name: match.name, new_spec: refineExisting(match, { ...spec, name: match.name }), reason: `refined from session ${sessionKey}` });
  } else {
    decision.creates.push(spec);
  }
  return { sessionKey, decision };
}

/**
 * An update keeps what the existing skill already says (as far as its bounded body
 * excerpt shows it) and adds what this session taught, as a careful reviewer would.
 */
function refineExisting(existing: Record<string, unknown>, derived: SkillSpec): SkillSpec {
  const body = typeof existing.body_excerpt === 'string' ? existing.body_excerpt : '';
  const section = (title: string) => new RegExp(`## ${title}\\n\\n([\\s\\S]*?)(?:\\n## |$)`).exec(body)?.[1]?.trim() ?? '';
  const items = (text: string, bullet: RegExp) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => bullet.test(l))
      .map((l) => l.replace(bullet, '').trim());
  const oldSteps = items(section('Steps'), /^\d+\.\s+/);
  const oldPitfalls = items(section('Pitfalls'), /^-\s+/);
  const whenToUse = section('When to use');
  return {
    ...derived,
    description: typeof existing.description === 'string' && existing.description.trim() ? existing.description : derived.description,
    when_to_use: whenToUse || derived.when_to_use,
    steps: mergeByTool(oldSteps, derived.steps),
    pitfalls: uniqueInOrder([...oldPitfalls, ...derived.pitfalls]),
  };
}

/** Newer steps replace older ones about the same tool; other old steps stay in place. */
function mergeByTool(oldSteps: string[], newSteps: string[]): string[] {
  const toolOf = (step: string) => /`([^`]+)`/.exec(step)?.[1];
  const merged = oldSteps.map((old) => newSteps.find((n) => toolOf(n) !== undefined && toolOf(n) === toolOf(old)) ?? old);
  return uniqueInOrder([...merged, ...newSteps]);
}

function deriveSpec(transcript: TranscriptEntry[], calls: ToolCallEvent[], markerText: string, outcome: z.infer<typeof OutcomeSchema> | undefined): SkillSpec {
  const toolNames = uniqueInOrder(calls.map((c) => c.name));
  const hint = /\[\[skill:([^\]\n]+)\]\]/i.exec(markerText)?.[1]?.trim();
  const name = bound(hint && hint.length > 0 ? hint : nameFromTools(toolNames), 200);
  const toolList = toolNames.map((t) => `\`${t}\``).join(', ');
  const request = firstUserRequest(transcript);

  return {
    name,
    description: request ? `Handle requests like "${request}" using ${toolList}.` : `Multi-step procedure using ${toolList}.`,
    when_to_use: request ? `When a user asks for something like "${request}".` : `When a task needs ${toolList} in sequence.`,
    steps: uniqueInOrder(calls.map(stepFor), (s) => s.key).map((s) => s.text),
    pitfalls: uniqueInOrder([...retryPitfalls(transcript, calls), ...correctionPitfalls(transcript), ...outcomePitfalls(outcome)]),
  };
}

function nameFromTools(toolNames: string[]): string {
  const slugs = toolNames.map(slug).filter((s) => s.length > 0);
  let name = '';
  for (const s of slugs) {
    const next = name ? `${name}-and-${s}` : s;
    if (next.length > 80) break;
    name = next;
  }
  return name || 'multi-step-procedure';
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function stepFor(call: ToolCallEvent): { key: string; text: string } {
  if (SHELL_LIKE_TOOL.test(call.name)) {
    const literal = bound(oneLine(shellCommandOf(call)), 200);
    return { key: `${call.name}\u0000${literal}`, text: `Call \`${call.name}\` to run: ${literal}` };
  }
  const shape = argumentShape(call.args);
  return { key: `${call.name}\u0000${shape}`, text: `Call \`${call.name}\` with ${shape}.` };
}

/** The command itself when the arguments are {command|cmd|script|code: "..."}, else the raw argument text. */
function shellCommandOf(call: ToolCallEvent): string {
  if (isRecord(call.args)) {
    for (const key of ['command', 'cmd', 'script', 'code', 'input']) {
      const v = call.args[key];
      if (typeof v === 'string') return v;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
    }
  }
  return call.argsText;
}

function argumentShape(args: unknown): string {
  if (isRecord(args)) {
    const keys = Object.keys(args).sort();
    return keys.length > 0 ? `{${keys.join(', ')}}` : 'no arguments';
  }
  if (args === undefined || args === null || args === '') return 'no arguments';
  return 'free-form arguments';
}

function retryPitfalls(transcript: TranscriptEntry[], calls: ToolCallEvent[]): string[] {
  const pitfalls: string[] = [];
  const byId = new Map(calls.filter((c) => c.id).map((c) => [c.id!, c]));
  let pending: ToolCallEvent[] = [];
  transcript.forEach((entry, index) => {
    if (entry.role === 'assistant' && entry.tool_calls && entry.tool_calls.length > 0) {
      pending = calls.filter((c) => c.index === index);
      return;
    }
    if (entry.role !== 'tool') return;
    const byOrder = pending.shift();
    const tool = (entry.tool_call_id && byId.get(entry.tool_call_id)?.name) || entry.name || byOrder?.name;
    const text = textOf(entry.content);
    if (!tool || !ERROR_LIKE.test(text)) return;
    const retried = calls.some((c) => c.index > index && c.name === tool);
    if (!retried) return;
    const firstLine = oneLine(stripMarkers(text.split(/\r?\n/).find((l) => l.trim().length > 0) ?? text));
    pitfalls.push(`If \`${tool}\` fails with "${bound(firstLine, 100)}", retry the call before giving up.`);
  });
  return pitfalls;
}

function correctionPitfalls(transcript: TranscriptEntry[]): string[] {
  const pitfalls: string[] = [];
  // A delta that opens with a user message follows an assistant turn that was already reviewed.
  let assistantSpoke = transcript[0]?.role === 'user';
  for (const entry of transcript) {
    if (entry.role === 'assistant') assistantSpoke = true;
    if (entry.role !== 'user' || !assistantSpoke) continue;
    const text = oneLine(stripMarkers(textOf(entry.content)));
    if (text && (CORRECTION_START.test(text) || CORRECTION_ANYWHERE.test(text))) {
      pitfalls.push(`Remember: ${bound(text, 200)}`);
    }
  }
  return pitfalls;
}

function outcomePitfalls(outcome: z.infer<typeof OutcomeSchema> | undefined): string[] {
  if (!outcome || !FAILED_OUTCOMES.has(outcome.status)) return [];
  const notes = outcome.notes ? oneLine(stripMarkers(outcome.notes)) : '';
  return notes
    ? [`A previous run ended with ${outcome.status}: ${bound(notes, 300)}`]
    : [`A previous run ended with ${outcome.status}; check the result before reporting success.`];
}

function collectToolCalls(transcript: TranscriptEntry[]): ToolCallEvent[] {
  const calls: ToolCallEvent[] = [];
  transcript.forEach((entry, index) => {
    if (entry.role !== 'assistant' || !entry.tool_calls) return;
    for (const call of entry.tool_calls) {
      const name = (call.function?.name ?? call.name ?? '').trim();
      if (!name) continue;
      const rawArgs = call.function ? call.function.arguments : call.arguments;
      calls.push({ index, id: call.id, name, ...normalizeArguments(rawArgs) });
    }
  });
  return calls;
}

function normalizeArguments(raw: unknown): { argsText: string; args: unknown } {
  if (typeof raw === 'string') {
    try {
      return { argsText: raw, args: JSON.parse(raw) };
    } catch {
      return { argsText: raw, args: raw };
    }
  }
  return { argsText: raw === undefined ? '' : JSON.stringify(raw), args: raw };
}

function firstUserRequest(transcript: TranscriptEntry[]): string {
  const first = transcript.find((e) => e.role === 'user' && oneLine(stripMarkers(textOf(e.content))).length > 0);
  return first ? bound(oneLine(stripMarkers(textOf(first.content))), 160) : '';
}

/** Message text plus tool-call arguments: where `[[...]]` markers are looked for. */
function transcriptMarkerText(transcript: TranscriptEntry[]): string {
  const parts: string[] = [];
  for (const entry of transcript) {
    parts.push(textOf(entry.content));
    for (const call of entry.tool_calls ?? []) {
      const raw = call.function ? call.function.arguments : call.arguments;
      parts.push(typeof raw === 'string' ? raw : JSON.stringify(raw ?? ''));
    }
  }
  return parts.join('\n');
}

function textOf(content: TranscriptEntry['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text ?? '').join('');
}

function sessionKeyOf(session: z.infer<typeof SessionSchema> | undefined): string {
  const part = (v: string | null | undefined) => (v && v.length > 0 ? v : '-');
  return [part(session?.app), part(session?.user), part(session?.sessionId ?? session?.session_id)].join('/');
}

function emptyDecision(skipReason: string): ReviewDecision {
  return { skip_reason: skipReason, creates: [], updates: [], deletions: [] };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseOptional<T>(schema: z.ZodType<T>, value: unknown, section: string): T | undefined {
  return value === undefined ? undefined : sectionShape(schema, value, section);
}
