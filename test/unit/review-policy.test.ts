import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../core/schemas';
import { buildReviewContext, deltaAfterCursor, isSkillWriteToolCall, looksLikeCorrection, looksLikeToolError, shouldReview, type ReviewContext } from '../../core/learning';

const user = (content: string, timestamp?: string): SessionEvent => ({ role: 'user', content, timestamp });
const assistant = (content: string, timestamp?: string): SessionEvent => ({ role: 'assistant', content, timestamp });
const call = (id: string, name: string, args = '{}'): SessionEvent => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});
const result = (id: string, content: string): SessionEvent => ({ role: 'tool', tool_call_id: id, content });

const ctx = (over: Partial<ReviewContext>): ReviewContext => ({
  messageCount: 3,
  toolCallCount: 0,
  hasUserCorrection: false,
  hasRecoveredError: false,
  wroteManagedSkill: false,
  ...over,
});

describe('buildReviewContext', () => {
  it('counts tool calls across assistant messages', () => {
    const c = buildReviewContext([user('weather?'), call('1', 'geocode'), result('1', 'ok'), call('2', 'forecast'), result('2', '{}'), assistant('done')]);
    expect(c.toolCallCount).toBe(2);
    expect(c.messageCount).toBe(6);
    expect(c.hasUserCorrection).toBe(false);
  });

  it('detects a user correction only after an assistant turn', () => {
    expect(buildReviewContext([user('hi'), assistant('Here is Paris.'), user('No, I meant Paris, Texas')]).hasUserCorrection).toBe(true);
    expect(buildReviewContext([user('hi'), call('1', 'search'), result('1', 'x'), user('that is wrong')]).hasUserCorrection).toBe(true);
    // The very first user message cannot correct anything.
    expect(buildReviewContext([user('Actually, what is the weather?'), assistant('Sunny.')]).hasUserCorrection).toBe(false);
    expect(buildReviewContext([user('hi'), assistant('Sunny.'), user('thanks, perfect')]).hasUserCorrection).toBe(false);
  });

  it('detects a tool error followed by a later successful tool result', () => {
    const recovered = [call('1', 'forecast'), result('1', 'Error: timeout after 30s'), call('2', 'forecast'), result('2', '{"temp": 21}')];
    expect(buildReviewContext(recovered).hasRecoveredError).toBe(true);
    const unrecovered = [call('1', 'forecast'), result('1', 'Traceback (most recent call last): ...'), assistant('Sorry, the API failed.')];
    expect(buildReviewContext(unrecovered).hasRecoveredError).toBe(false);
    expect(buildReviewContext([call('1', 'x'), result('1', 'fine'), call('2', 'x'), result('2', 'fine')]).hasRecoveredError).toBe(false);
  });

  it('detects that the agent already wrote a managed skill', () => {
    expect(buildReviewContext([call('1', 'skill_manage', '{"action":"create"}')]).wroteManagedSkill).toBe(true);
    expect(buildReviewContext([call('1', 'write_file', '{"path":"skills/weather/SKILL.md"}')]).wroteManagedSkill).toBe(true);
    expect(buildReviewContext([call('1', 'shell_exec', '{"cmd":"cat > skills/x/SKILL.md <<EOF"}')]).wroteManagedSkill).toBe(true);
    expect(buildReviewContext([call('1', 'read_file', '{"path":"skills/weather/SKILL.md"}')]).wroteManagedSkill).toBe(false);
    expect(buildReviewContext([user('what does SKILL.md say?'), assistant('It says...')]).wroteManagedSkill).toBe(false);
  });

  it('ignores system prompts', () => {
    expect(buildReviewContext([{ role: 'system', content: 'You are helpful. No, never do X.' }]).messageCount).toBe(0);
  });
});

describe('heuristics', () => {
  it('recognises correction phrases', () => {
    for (const t of [
      'No, use Celsius',
      "That's not right",
      'wrong city',
      'use metric instead',
      'please fix the totals',
      'You forgot Berlin',
      'I meant tomorrow',
      'nope',
      'That\u2019s incorrect',
    ]) {
      expect(looksLikeCorrection(t)).toBe(true);
    }
    for (const t of ['No problem at all', 'thanks', 'piano, violin', 'great job']) expect(looksLikeCorrection(t)).toBe(false);
  });

  it('recognises Chinese corrections (reference cue list)', () => {
    for (const t of ['不是这样，要用摄氏度', '不对', '错了，是柏林', '应该先查询天气再汇总', '重新来一遍', '请修正总数', '把单位改成公制', '不是北京，而是上海']) {
      expect({ t, correction: looksLikeCorrection(t) }).toEqual({ t, correction: true });
    }
    for (const t of ['谢谢', '很好', '天气怎么样？']) expect({ t, correction: looksLikeCorrection(t) }).toEqual({ t, correction: false });
  });

  it('recognises forward-looking workflow feedback in English and Chinese', () => {
    for (const t of [
      'Going forward, use this workflow and keep the same output fields.',
      'From now on, sort the report by date.',
      'Next time, put the summary table first.',
      'By default, use metric units for every forecast.',
      '以后遇到这类任务默认按这套工作流',
      '下次请先列出步骤再执行',
      '默认使用这个模板',
    ]) {
      expect({ t, correction: looksLikeCorrection(t) }).toEqual({ t, correction: true });
    }
    for (const t of ['See you next time!', 'Thanks, that is the default.', '以后再说吧']) expect({ t, correction: looksLikeCorrection(t) }).toEqual({ t, correction: false });
  });

  it('recognises tool errors', () => {
    for (const t of [
      'Error: not found',
      'request failed: 503',
      '{"error": "rate limited"}',
      'Traceback (most recent call last)',
      'connection timed out',
      'HTTP 500',
      'status: 404',
    ]) {
      expect(looksLikeToolError(t)).toBe(true);
    }
    for (const t of ['{"error": null, "temp": 3}', '0 errors found', '{"status": 200}', 'ok']) expect(looksLikeToolError(t)).toBe(false);
  });

  it('classifies skill-writing tool calls', () => {
    expect(isSkillWriteToolCall('create_skill', '')).toBe(true);
    expect(isSkillWriteToolCall('apply_patch', '*** Update File: skills/a/SKILL.md')).toBe(true);
    expect(isSkillWriteToolCall('bash', 'ls skills/*/SKILL.md')).toBe(false);
    expect(isSkillWriteToolCall('skill_load', '{"name":"weather"}')).toBe(false);
  });
});

describe('shouldReview', () => {
  it('reviews at or above the tool-call threshold', () => {
    expect(shouldReview(ctx({ toolCallCount: 4 }), { minToolCalls: 4 })).toEqual({ review: true, reason: 'worth reviewing: 4 tool calls (threshold 4)' });
    expect(shouldReview(ctx({ toolCallCount: 3 }), { minToolCalls: 4 }).review).toBe(false);
  });

  it('a negative threshold disables the tool-call rule, not the others', () => {
    expect(shouldReview(ctx({ toolCallCount: 100 }), { minToolCalls: -1 })).toEqual({
      review: false,
      reason: 'policy declined: tool-call rule disabled, no user correction, no recovered error',
    });
    expect(shouldReview(ctx({ toolCallCount: 100, hasUserCorrection: true }), { minToolCalls: -1 }).review).toBe(true);
  });

  it('reviews on a user correction or a recovered error, with the reason', () => {
    expect(shouldReview(ctx({ hasUserCorrection: true }), { minToolCalls: 4 }).reason).toContain('user corrected the assistant');
    expect(shouldReview(ctx({ hasRecoveredError: true }), { minToolCalls: 4 }).reason).toContain('recovered from a tool error');
    expect(shouldReview(ctx({ hasRecoveredError: true }), { minToolCalls: 4, recoveredError: false }).review).toBe(false);
  });

  it('skips a delta that already wrote a managed skill, even with every trigger present', () => {
    const verdict = shouldReview(ctx({ toolCallCount: 9, hasUserCorrection: true, hasRecoveredError: true, wroteManagedSkill: true }), { minToolCalls: 4 });
    expect(verdict.review).toBe(false);
    expect(verdict.reason).toContain('already wrote a managed skill');
  });

  it('skips an empty delta', () => {
    expect(shouldReview(ctx({ messageCount: 0, toolCallCount: 0 }), { minToolCalls: 0 })).toEqual({ review: false, reason: 'no new messages since the last review' });
  });
});

describe('deltaAfterCursor', () => {
  const t = (s: number) => `2026-05-01T10:00:${String(s).padStart(2, '0')}Z`;

  it('returns everything and a cursor at the newest timestamp when nothing was reviewed', () => {
    const events = [user('a', t(1)), assistant('b', t(2))];
    expect(deltaAfterCursor(events)).toEqual({ delta: events, nextCursor: { lastEventCount: 2, lastReviewedAt: t(2) } });
  });

  it('uses timestamps when both sides have them (strictly after)', () => {
    const events = [user('a', t(1)), assistant('b', t(2)), user('c', t(3))];
    const { delta, nextCursor } = deltaAfterCursor(events, { lastReviewedAt: t(2), lastEventCount: 2 });
    expect(delta.map((e) => e.content)).toEqual(['c']);
    expect(nextCursor).toEqual({ lastEventCount: 3, lastReviewedAt: t(3) });
  });

  it('compares instants across offsets and beyond milliseconds', () => {
    const events = [user('old', '2026-05-01T12:00:00+02:00'), user('new', '2026-05-01T10:00:00.000200Z')];
    const { delta, nextCursor } = deltaAfterCursor(events, { lastReviewedAt: '2026-05-01T10:00:00.000100Z' });
    expect(delta.map((e) => e.content)).toEqual(['new']);
    expect(nextCursor.lastReviewedAt).toBe('2026-05-01T10:00:00.000200Z');
  });

  it('falls back to the event count for events without timestamps', () => {
    const events = [user('a'), assistant('b'), user('c'), assistant('d')];
    const { delta, nextCursor } = deltaAfterCursor(events, { lastEventCount: 2 });
    expect(delta.map((e) => e.content)).toEqual(['c', 'd']);
    expect(nextCursor).toEqual({ lastEventCount: 4 });
  });

  it('mixes both: timestamped events by time, untimestamped ones by position', () => {
    const events = [user('a', t(1)), assistant('b'), user('c', t(5)), assistant('d')];
    const { delta, nextCursor } = deltaAfterCursor(events, { lastReviewedAt: t(1), lastEventCount: 2 });
    expect(delta.map((e) => e.content)).toEqual(['c', 'd']);
    expect(nextCursor).toEqual({ lastEventCount: 4, lastReviewedAt: t(5) });
  });

  it('keeps the old timestamp when the delta has none and restarts position when history shrank', () => {
    expect(deltaAfterCursor([user('a'), user('b')], { lastReviewedAt: t(9), lastEventCount: 5 })).toEqual({
      delta: [user('a'), user('b')],
      nextCursor: { lastEventCount: 2, lastReviewedAt: t(9) },
    });
  });

  it('returns an empty delta when nothing is new', () => {
    const events = [user('a', t(1))];
    expect(deltaAfterCursor(events, { lastReviewedAt: t(1), lastEventCount: 1 }).delta).toEqual([]);
  });
});

describe('correction at the start of a delta', () => {
  it('counts when the turn before the delta (already reviewed) was the assistant', async () => {
    const { buildReviewContext, turnBefore, shouldReview } = await import('../../core');
    const events = [
      { role: 'user' as const, content: 'weather for Paris?' },
      { role: 'assistant' as const, content: 'Paris: 14 degrees' },
      { role: 'user' as const, content: 'Actually, you forgot to say the units.' },
    ];
    const delta = events.slice(2);
    expect(turnBefore(events, delta)).toBe('assistant');
    const ctx = buildReviewContext(delta, { precededBy: turnBefore(events, delta) });
    expect(ctx.hasUserCorrection).toBe(true);
    expect(shouldReview(ctx, { minToolCalls: 4 }).review).toBe(true);
    expect(buildReviewContext(delta).hasUserCorrection).toBe(false);
  });
});
