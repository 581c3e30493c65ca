"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.review = review;
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
const zod_1 = require("zod");
const prompt_sections_1 = require("./prompt-sections");
const text_util_1 = require("./text-util");
const ContentSchema = zod_1.z
    .union([zod_1.z.string(), zod_1.z.array(zod_1.z.object({ text: zod_1.z.string().optional() }).loose()), zod_1.z.null()])
    .optional();
const ToolCallSchema = zod_1.z
    .object({
    id: zod_1.z.string().optional(),
    name: zod_1.z.string().optional(),
    arguments: zod_1.z.unknown().optional(),
    function: zod_1.z.object({ name: zod_1.z.string(), arguments: zod_1.z.unknown().optional() }).loose().optional(),
})
    .loose();
const TranscriptSchema = zod_1.z.array(zod_1.z
    .object({
    role: zod_1.z.string(),
    content: ContentSchema,
    tool_calls: zod_1.z.array(ToolCallSchema).nullable().optional(),
    tool_call_id: zod_1.z.string().optional(),
    name: zod_1.z.string().optional(),
})
    .loose());
const SessionSchema = zod_1.z
    .object({
    app: zod_1.z.string().nullish(),
    user: zod_1.z.string().nullish(),
    sessionId: zod_1.z.string().nullish(),
    session_id: zod_1.z.string().nullish(),
})
    .loose();
const ExistingSkillsSchema = zod_1.z.array(zod_1.z.object({ name: zod_1.z.string() }).loose());
const OutcomeSchema = zod_1.z.object({ status: zod_1.z.string(), score: zod_1.z.number().nullish(), notes: zod_1.z.string().nullish() }).loose();
const SHELL_LIKE_TOOL = /shell|exec|bash|terminal|powershell|run_command|^cmd$|^sh$/i;
const ERROR_LIKE = /error|timeout|timed out|failed/i;
const CORRECTION_START = /^(no|not|nope|wrong|actually|incorrect|don't|dont|do not|stop)\b/i;
const CORRECTION_ANYWHERE = /\b(instead|you forgot|should have)\b/i;
const FAILED_OUTCOMES = new Set(['fail', 'agent_error']);
function review(userPrompt) {
    const sections = (0, prompt_sections_1.parseSections)(userPrompt);
    const transcript = (0, prompt_sections_1.sectionShape)(TranscriptSchema, (0, prompt_sections_1.sectionJson)(sections, 'Transcript', true), 'Transcript');
    const session = parseOptional(SessionSchema, (0, prompt_sections_1.sectionJson)(sections, 'Session', false), 'Session');
    const existing = parseOptional(ExistingSkillsSchema, (0, prompt_sections_1.sectionJson)(sections, 'Existing skills', false), 'Existing skills') ?? [];
    const outcome = parseOptional(OutcomeSchema, (0, prompt_sections_1.sectionJson)(sections, 'Session outcome', false), 'Session outcome');
    const sessionKey = sessionKeyOf(session);
    const markerText = transcriptMarkerText(transcript);
    if (/\[\[skip\]\]/i.test(markerText)) {
        return { sessionKey, decision: emptyDecision('skip requested by [[skip]] marker') };
    }
    const deletions = (0, text_util_1.uniqueInOrder)([...markerText.matchAll(/\[\[delete:([^\]\n]+)\]\]/gi)].map((m) => m[1].trim()).filter((n) => n.length > 0));
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
    }
    else {
        decision.creates.push(spec);
    }
    return { sessionKey, decision };
}
/**
 * An update keeps what the existing skill already says (as far as its bounded body
 * excerpt shows it) and adds what this session taught, as a careful reviewer would.
 */
function refineExisting(existing, derived) {
    const body = typeof existing.body_excerpt === 'string' ? existing.body_excerpt : '';
    const section = (title) => new RegExp(`## ${title}\\n\\n([\\s\\S]*?)(?:\\n## |$)`).exec(body)?.[1]?.trim() ?? '';
    const items = (text, bullet) => text.split('\n').map((l) => l.trim()).filter((l) => bullet.test(l)).map((l) => l.replace(bullet, '').trim());
    const oldSteps = items(section('Steps'), /^\d+\.\s+/);
    const oldPitfalls = items(section('Pitfalls'), /^-\s+/);
    const whenToUse = section('When to use');
    return {
        ...derived,
        description: typeof existing.description === 'string' && existing.description.trim() ? existing.description : derived.description,
        when_to_use: whenToUse || derived.when_to_use,
        steps: mergeByTool(oldSteps, derived.steps),
        pitfalls: (0, text_util_1.uniqueInOrder)([...oldPitfalls, ...derived.pitfalls]),
    };
}
/** Newer steps replace older ones about the same tool; other old steps stay in place. */
function mergeByTool(oldSteps, newSteps) {
    const toolOf = (step) => /`([^`]+)`/.exec(step)?.[1];
    const merged = oldSteps.map((old) => newSteps.find((n) => toolOf(n) !== undefined && toolOf(n) === toolOf(old)) ?? old);
    return (0, text_util_1.uniqueInOrder)([...merged, ...newSteps]);
}
function deriveSpec(transcript, calls, markerText, outcome) {
    const toolNames = (0, text_util_1.uniqueInOrder)(calls.map((c) => c.name));
    const hint = /\[\[skill:([^\]\n]+)\]\]/i.exec(markerText)?.[1]?.trim();
    const name = (0, text_util_1.bound)(hint && hint.length > 0 ? hint : nameFromTools(toolNames), 200);
    const toolList = toolNames.map((t) => `\`${t}\``).join(', ');
    const request = firstUserRequest(transcript);
    return {
        name,
        description: request ? `Handle requests like "${request}" using ${toolList}.` : `Multi-step procedure using ${toolList}.`,
        when_to_use: request ? `When a user asks for something like "${request}".` : `When a task needs ${toolList} in sequence.`,
        steps: (0, text_util_1.uniqueInOrder)(calls.map(stepFor), (s) => s.key).map((s) => s.text),
        pitfalls: (0, text_util_1.uniqueInOrder)([
            ...retryPitfalls(transcript, calls),
            ...correctionPitfalls(transcript),
            ...outcomePitfalls(outcome),
        ]),
    };
}
function nameFromTools(toolNames) {
    const slugs = toolNames.map(slug).filter((s) => s.length > 0);
    let name = '';
    for (const s of slugs) {
        const next = name ? `${name}-and-${s}` : s;
        if (next.length > 80)
            break;
        name = next;
    }
    return name || 'multi-step-procedure';
}
function slug(text) {
    return text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
}
function stepFor(call) {
    if (SHELL_LIKE_TOOL.test(call.name)) {
        const literal = (0, text_util_1.bound)((0, text_util_1.oneLine)(shellCommandOf(call)), 200);
        return { key: `${call.name}\u0000${literal}`, text: `Call \`${call.name}\` to run: ${literal}` };
    }
    const shape = argumentShape(call.args);
    return { key: `${call.name}\u0000${shape}`, text: `Call \`${call.name}\` with ${shape}.` };
}
/** The command itself when the arguments are {command|cmd|script|code: "..."}, else the raw argument text. */
function shellCommandOf(call) {
    if (isRecord(call.args)) {
        for (const key of ['command', 'cmd', 'script', 'code', 'input']) {
            const v = call.args[key];
            if (typeof v === 'string')
                return v;
            if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
                return v.join(' ');
        }
    }
    return call.argsText;
}
function argumentShape(args) {
    if (isRecord(args)) {
        const keys = Object.keys(args).sort();
        return keys.length > 0 ? `{${keys.join(', ')}}` : 'no arguments';
    }
    if (args === undefined || args === null || args === '')
        return 'no arguments';
    return 'free-form arguments';
}
function retryPitfalls(transcript, calls) {
    const pitfalls = [];
    const byId = new Map(calls.filter((c) => c.id).map((c) => [c.id, c]));
    let pending = [];
    transcript.forEach((entry, index) => {
        if (entry.role === 'assistant' && entry.tool_calls && entry.tool_calls.length > 0) {
            pending = calls.filter((c) => c.index === index);
            return;
        }
        if (entry.role !== 'tool')
            return;
        const byOrder = pending.shift();
        const tool = (entry.tool_call_id && byId.get(entry.tool_call_id)?.name) || entry.name || byOrder?.name;
        const text = textOf(entry.content);
        if (!tool || !ERROR_LIKE.test(text))
            return;
        const retried = calls.some((c) => c.index > index && c.name === tool);
        if (!retried)
            return;
        const firstLine = (0, text_util_1.oneLine)((0, text_util_1.stripMarkers)(text.split(/\r?\n/).find((l) => l.trim().length > 0) ?? text));
        pitfalls.push(`If \`${tool}\` fails with "${(0, text_util_1.bound)(firstLine, 100)}", retry the call before giving up.`);
    });
    return pitfalls;
}
function correctionPitfalls(transcript) {
    const pitfalls = [];
    // A delta that opens with a user message follows an assistant turn that was already reviewed.
    let assistantSpoke = transcript[0]?.role === 'user';
    for (const entry of transcript) {
        if (entry.role === 'assistant')
            assistantSpoke = true;
        if (entry.role !== 'user' || !assistantSpoke)
            continue;
        const text = (0, text_util_1.oneLine)((0, text_util_1.stripMarkers)(textOf(entry.content)));
        if (text && (CORRECTION_START.test(text) || CORRECTION_ANYWHERE.test(text))) {
            pitfalls.push(`Remember: ${(0, text_util_1.bound)(text, 200)}`);
        }
    }
    return pitfalls;
}
function outcomePitfalls(outcome) {
    if (!outcome || !FAILED_OUTCOMES.has(outcome.status))
        return [];
    const notes = outcome.notes ? (0, text_util_1.oneLine)((0, text_util_1.stripMarkers)(outcome.notes)) : '';
    return notes
        ? [`A previous run ended with ${outcome.status}: ${(0, text_util_1.bound)(notes, 300)}`]
        : [`A previous run ended with ${outcome.status}; check the result before reporting success.`];
}
function collectToolCalls(transcript) {
    const calls = [];
    transcript.forEach((entry, index) => {
        if (entry.role !== 'assistant' || !entry.tool_calls)
            return;
        for (const call of entry.tool_calls) {
            const name = (call.function?.name ?? call.name ?? '').trim();
            if (!name)
                continue;
            const rawArgs = call.function ? call.function.arguments : call.arguments;
            calls.push({ index, id: call.id, name, ...normalizeArguments(rawArgs) });
        }
    });
    return calls;
}
function normalizeArguments(raw) {
    if (typeof raw === 'string') {
        try {
            return { argsText: raw, args: JSON.parse(raw) };
        }
        catch {
            return { argsText: raw, args: raw };
        }
    }
    return { argsText: raw === undefined ? '' : JSON.stringify(raw), args: raw };
}
function firstUserRequest(transcript) {
    const first = transcript.find((e) => e.role === 'user' && (0, text_util_1.oneLine)((0, text_util_1.stripMarkers)(textOf(e.content))).length > 0);
    return first ? (0, text_util_1.bound)((0, text_util_1.oneLine)((0, text_util_1.stripMarkers)(textOf(first.content))), 160) : '';
}
/** Message text plus tool-call arguments: where `[[...]]` markers are looked for. */
function transcriptMarkerText(transcript) {
    const parts = [];
    for (const entry of transcript) {
        parts.push(textOf(entry.content));
        for (const call of entry.tool_calls ?? []) {
            const raw = call.function ? call.function.arguments : call.arguments;
            parts.push(typeof raw === 'string' ? raw : JSON.stringify(raw ?? ''));
        }
    }
    return parts.join('\n');
}
function textOf(content) {
    if (content == null)
        return '';
    if (typeof content === 'string')
        return content;
    return content.map((p) => p.text ?? '').join('');
}
function sessionKeyOf(session) {
    const part = (v) => (v && v.length > 0 ? v : '-');
    return [part(session?.app), part(session?.user), part(session?.sessionId ?? session?.session_id)].join('/');
}
function emptyDecision(skipReason) {
    return { skip_reason: skipReason, creates: [], updates: [], deletions: [] };
}
function isRecord(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function parseOptional(schema, value, section) {
    return value === undefined ? undefined : (0, prompt_sections_1.sectionShape)(schema, value, section);
}
//# sourceMappingURL=reviewer.js.map