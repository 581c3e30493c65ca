"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReviewCursorSchema = void 0;
exports.looksLikeCorrection = looksLikeCorrection;
exports.looksLikeToolError = looksLikeToolError;
exports.isSkillWriteToolCall = isSkillWriteToolCall;
exports.buildReviewContext = buildReviewContext;
exports.shouldReview = shouldReview;
exports.deltaAfterCursor = deltaAfterCursor;
exports.turnBefore = turnBefore;
const zod_1 = require("zod");
const session_1 = require("../schemas/session");
// Phrases a user uses to correct the assistant (the reference's list plus close variants).
const CORRECTION_MARKERS = [
    /\bno\s*[,!]/,
    /^\s*(no|nope)[.!]?\s*$/,
    /\bwrong\b/,
    /\bincorrect\b/,
    /\bactually\b/,
    /\binstead\b/,
    /\bnot what i\b/,
    /\bthat'?s not (right|correct|it)\b/,
    /\bnot correct\b/,
    /\bplease fix\b/,
    /\btry again\b/,
    /\byou (missed|forgot|ignored|skipped)\b/,
    /\bi (said|meant|asked for)\b/,
];
// Chinese corrections (the reference's list plus 不是这样/应该/重新); no word boundaries in Chinese, so substrings.
const CHINESE_CORRECTION_MARKERS = ['不是这样', '不对', '错了', '不是', '而是', '请修正', '请修改', '改成', '应该', '重新', '重来'];
// Forward-looking feedback: a future/default marker plus a workflow word or an instruction ("by default, use ...").
const FUTURE_MARKERS = [
    /\bgoing forward\b/,
    /\bfrom now on\b/,
    /\bnext time\b/,
    /\bin the future\b/,
    /\bby default\b/,
    /\bdefault to\b/,
    /\bkeep using\b/,
    /以后|今后|后续|下次|将来|未来|默认|从现在开始/,
];
const FEEDBACK_MARKERS = [
    /\b(workflow|procedure|process|steps?|checklist|template|format|structure|schema|fields?|category|classification|output|rules?)\b/,
    /\b(use|always|never|put|sort|include|list|start|add|send|save|check|follow|keep)\b/,
    /工作流|流程|步骤|清单|模板|格式|结构|字段|分类|输出|规则|按这套|照这个|保持这个|固定|使用|用|按|请|先/,
];
/**
 * True when a user message reads like a correction of the previous answer, in English
 * or Chinese, or like forward-looking workflow feedback ("going forward, use ...",
 * "以后 ... 默认按这套工作流"), which the reference also treats as worth learning from.
 */
function looksLikeCorrection(text) {
    const t = text.toLowerCase().replace(/[\u2018\u2019]/g, "'");
    if (CORRECTION_MARKERS.some((re) => re.test(t)))
        return true;
    if (CHINESE_CORRECTION_MARKERS.some((m) => t.includes(m)))
        return true;
    return FUTURE_MARKERS.some((re) => re.test(t)) && FEEDBACK_MARKERS.some((re) => re.test(t));
}
// Tool output that reports a failure (the reference's markers plus common JSON/HTTP forms).
const ERROR_MARKERS = [
    /\b(error|failed|failure|exception|fatal)\s*:/i,
    /^\s*(error|exception)\b/i,
    /\btraceback\b/i,
    /"error"\s*:(?!\s*(?:null\b|false\b|""|\{\s*\}|\[\s*\]))/i,
    /\btimed?[ -]?out\b/i,
    /\b(status|status_code|http)["']?\s*[:= ]\s*["']?[45]\d\d\b/i,
];
function looksLikeToolError(text) {
    return ERROR_MARKERS.some((re) => re.test(text));
}
// Tools whose very purpose is to manage skills (e.g. Hermes' skill_manage).
const SKILL_TOOL = /(^|[_.:-])skills?[_-]?(manage|write|create|update|edit|patch|save|delete|upsert)|(write|create|update|edit|patch|save|delete|upsert)[_-]?skills?($|[_.:-])/;
const FILE_WRITE_TOOL = /write|edit|patch|apply|str_replace|create_file|save/;
const SHELL_TOOL = /exec|shell|bash|terminal|command|run|workspace/;
const SHELL_MUTATION = ['apply_patch', 'cat <<', 'cat >', 'tee ', '>>', '> ', 'printf ', 'echo ', 'mkdir ', 'cp ', 'mv ', 'sed -i', 'python', 'rm '];
/**
 * True when a tool call writes a SKILL.md: a skill-management tool, a
 * file-writing tool whose arguments name SKILL.md, or a shell tool running a
 * mutating command on SKILL.md. Merely mentioning SKILL.md in text does not
 * count (the reference also counts that; we found it too broad: a user asking
 * about a skill would suppress learning).
 */
function isSkillWriteToolCall(name, args) {
    const n = name.toLowerCase();
    if (SKILL_TOOL.test(n))
        return true;
    const a = args.toLowerCase();
    if (!a.includes('skill.md'))
        return false;
    if (FILE_WRITE_TOOL.test(n))
        return true;
    return SHELL_TOOL.test(n) && SHELL_MUTATION.some((m) => a.includes(m));
}
/**
 * Compute the policy signals of a delta. `precededBy` is the last turn before the delta
 * (already reviewed): a correction at the start of a delta corrects that assistant turn.
 */
function buildReviewContext(delta, options = {}) {
    let messageCount = 0;
    let toolCallCount = 0;
    let hasUserCorrection = false;
    let hasRecoveredError = false;
    let wroteManagedSkill = false;
    let lastTurn = options.precededBy;
    let unrecoveredError = false;
    for (const event of delta) {
        const text = (0, session_1.messageText)(event);
        const calls = event.tool_calls ?? [];
        if (event.role === 'system' || event.role === 'developer')
            continue;
        if (text.trim() !== '' || calls.length > 0)
            messageCount++;
        switch (event.role) {
            case 'assistant':
                toolCallCount += calls.length;
                if (calls.some((c) => isSkillWriteToolCall(c.function.name, c.function.arguments)))
                    wroteManagedSkill = true;
                // A tool-call-only assistant message is a turn too: the user may correct what it did.
                if (text.trim() !== '' || calls.length > 0)
                    lastTurn = 'assistant';
                break;
            case 'tool':
                // Recovery means a later tool call succeeded after an error, not merely that the assistant spoke again.
                if (looksLikeToolError(text))
                    unrecoveredError = true;
                else if (unrecoveredError && text.trim() !== '') {
                    hasRecoveredError = true;
                    unrecoveredError = false;
                }
                break;
            case 'user':
                if (text.trim() === '')
                    break;
                if (lastTurn === 'assistant' && looksLikeCorrection(text))
                    hasUserCorrection = true;
                lastTurn = 'user';
                break;
        }
    }
    return { messageCount, toolCallCount, hasUserCorrection, hasRecoveredError, wroteManagedSkill };
}
/**
 * Whether the reviewer should see this delta. Every `review: false` is a
 * deliberate no-op: the caller advances the cursor past the delta.
 */
function shouldReview(ctx, options) {
    if (ctx.messageCount === 0)
        return { review: false, reason: 'no new messages since the last review' };
    if (ctx.wroteManagedSkill) {
        return { review: false, reason: 'the agent already wrote a managed skill in this delta; not learning from learning output' };
    }
    const { minToolCalls } = options;
    const triggers = [];
    if (minToolCalls >= 0 && ctx.toolCallCount >= minToolCalls)
        triggers.push(`${ctx.toolCallCount} tool calls (threshold ${minToolCalls})`);
    if ((options.userCorrection ?? true) && ctx.hasUserCorrection)
        triggers.push('user corrected the assistant');
    if ((options.recoveredError ?? true) && ctx.hasRecoveredError)
        triggers.push('recovered from a tool error');
    if (triggers.length > 0)
        return { review: true, reason: `worth reviewing: ${triggers.join('; ')}` };
    const threshold = minToolCalls < 0 ? 'tool-call rule disabled' : `${ctx.toolCallCount} tool calls < ${minToolCalls}`;
    return { review: false, reason: `policy declined: ${threshold}, no user correction, no recovered error` };
}
// ---------------------------------------------------------------------------
// Review cursor
/**
 * How far review has consumed a session. `lastReviewedAt` is the newest event
 * timestamp reviewed (the reference's evolution:last_review_at);
 * `lastEventCount` is how many events the session had then, the fallback for
 * events that carry no timestamp.
 */
exports.ReviewCursorSchema = zod_1.z.object({
    lastReviewedAt: session_1.IsoTimestampSchema.optional(),
    lastEventCount: zod_1.z.number().int().nonnegative().optional(),
});
/**
 * The events after `cursor`, given the session's full, append-only event list.
 *
 * - An event with a timestamp, when the cursor has one, is new iff it is
 *   strictly later (compared as instants, sub-millisecond digits included).
 * - Otherwise (no timestamp on the event or none in the cursor) position
 *   decides: the event is new iff its index >= lastEventCount.
 * - If the list is shorter than lastEventCount it cannot be the same history
 *   (the platform sent a fresh or truncated list), so position restarts at 0:
 *   reviewing twice is recoverable (reconciliation dedups), losing a segment is not.
 *
 * Platforms must therefore send either the whole session each time or
 * timestamped events.
 */
function deltaAfterCursor(events, cursor = {}) {
    const since = cursor.lastReviewedAt !== undefined ? isoInstant(cursor.lastReviewedAt) : undefined;
    const countFrom = cursor.lastEventCount !== undefined && cursor.lastEventCount <= events.length ? cursor.lastEventCount : 0;
    const delta = [];
    let newest = cursor.lastReviewedAt;
    let newestInstant = since;
    events.forEach((event, index) => {
        const at = event.timestamp !== undefined ? isoInstant(event.timestamp) : undefined;
        const isNew = at !== undefined && since !== undefined ? compareInstants(at, since) > 0 : index >= countFrom;
        if (!isNew)
            return;
        delta.push(event);
        if (at !== undefined && (newestInstant === undefined || compareInstants(at, newestInstant) > 0)) {
            newest = event.timestamp;
            newestInstant = at;
        }
    });
    const nextCursor = { lastEventCount: events.length };
    if (newest !== undefined)
        nextCursor.lastReviewedAt = newest;
    return { delta, nextCursor };
}
function isoInstant(iso) {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms))
        throw new RangeError(`not an ISO-8601 timestamp: ${JSON.stringify(iso)}`);
    const fraction = /T[^.]*\.(\d+)/.exec(iso)?.[1] ?? '';
    const subMsNanos = Number(fraction.slice(3, 9).padEnd(6, '0'));
    return { ms, subMsNanos };
}
function compareInstants(a, b) {
    return a.ms !== b.ms ? a.ms - b.ms : a.subMsNanos - b.subMsNanos;
}
/** The last user/assistant turn before `delta` in `events` (the delta is a suffix of them). */
function turnBefore(events, delta) {
    const start = delta.length ? events.indexOf(delta[0]) : events.length;
    for (let i = start - 1; i >= 0; i--) {
        const role = events[i].role;
        if (role === 'user' || role === 'assistant')
            return role;
    }
    return undefined;
}
//# sourceMappingURL=review-policy.js.map