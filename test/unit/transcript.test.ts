import { describe, expect, it } from 'vitest';
import type { ExistingSkill, SessionEvent } from '../../core/schemas';
import { boundExistingSkills, buildTranscript, renderTranscript, TRANSCRIPT_DEFAULTS } from '../../core/learning';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('buildTranscript', () => {
  it('keeps roles, tool names resolved from tool_call_id, and tool calls', () => {
    const events: SessionEvent[] = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'forecast', arguments: ' {"city":"Paris"} ' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp": 21}' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'It is ' },
          { type: 'text', text: '21°C.' },
        ],
      },
    ];
    const t = buildTranscript(events);
    expect(t.omitted).toBeUndefined();
    expect(t.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ name: 'forecast', arguments: '{"city":"Paris"}' }] },
      { role: 'tool', content: '{"temp": 21}', toolName: 'forecast' },
      { role: 'assistant', content: 'It is \n21°C.' },
    ]);
    expect(buildTranscript(events, { includeSystem: true }).messages[0]).toEqual({ role: 'system', content: 'You are an agent.' });
  });

  it('joins the text parts of a message with a newline and skips parts without text (reference semantics)', () => {
    const t = buildTranscript([{ role: 'user', content: [{ type: 'text', text: 'line one' }, { type: 'image_url' }, { type: 'text', text: 'line two' }] }]);
    expect(t.messages[0].content).toBe('line one\nline two');
  });

  it('bounds and redacts tool names and message names like content', () => {
    const longName = `tool_${'x'.repeat(5000)}`;
    const events: SessionEvent[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', function: { name: longName, arguments: '{}' } },
          { id: 'c2', function: { name: 'deploy_AKIAIOSFODNN7EXAMPLE', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
      { role: 'tool', name: `n_${'y'.repeat(5000)}`, content: 'ok' },
    ];
    const t = buildTranscript(events, { maxNameBytes: 100 });
    expect(bytes(t.messages[0].toolCalls![0].name)).toBeLessThanOrEqual(100);
    expect(t.messages[0].toolCalls![1].name).toBe('deploy_[REDACTED]');
    expect(bytes(t.messages[1].toolName!)).toBeLessThanOrEqual(100);
    expect(t.messages[2].toolName).toBe('deploy_[REDACTED]');
    expect(bytes(t.messages[3].toolName!)).toBeLessThanOrEqual(100);
    expect(JSON.stringify(buildTranscript(events))).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(bytes(buildTranscript(events).messages[0].toolCalls![0].name)).toBeLessThanOrEqual(TRANSCRIPT_DEFAULTS.maxNameBytes);
  });

  it('caps each message to head+tail and redacts before cutting', () => {
    const big = `START password=hunter2 ${'😀'.repeat(5000)} sk-abcdefghijklmnop12345 END`;
    const t = buildTranscript([{ role: 'tool', tool_call_id: 'x', name: 'fetch', content: big }], { maxMessageBytes: 500 });
    const m = t.messages[0];
    expect(bytes(m.content)).toBeLessThanOrEqual(500);
    expect(m.content.startsWith('START password=[REDACTED]')).toBe(true);
    expect(m.content.endsWith('[REDACTED] END')).toBe(true);
    expect(m.content).not.toContain('hunter2');
    expect(m.toolName).toBe('fetch');
  });

  it('bounds and redacts tool-call arguments', () => {
    const args = JSON.stringify({ api_key: 'k-123456', payload: 'x'.repeat(10_000) });
    const t = buildTranscript([{ role: 'assistant', tool_calls: [{ function: { name: 'post', arguments: args } }] }], { maxArgumentBytes: 300 });
    const a = t.messages[0].toolCalls![0].arguments;
    expect(bytes(a)).toBeLessThanOrEqual(300);
    expect(a).toContain('"api_key":"[REDACTED]"');
  });

  it('drops middle messages beyond the total budget, keeping the first and last', () => {
    const events: SessionEvent[] = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i} ${'x'.repeat(200)}` }));
    const t = buildTranscript(events, { maxTotalBytes: 2000 });
    expect(t.omitted).toBeDefined();
    expect(t.messages[0].content.startsWith('m0 ')).toBe(true);
    expect(t.messages[t.messages.length - 1].content.startsWith('m49 ')).toBe(true);
    expect(t.messages.length + t.omitted!.count).toBe(50);
    expect(renderTranscript(t)).toContain(`[... ${t.omitted!.count} messages omitted ...]`);
  });

  it('renders a readable transcript', () => {
    const text = renderTranscript(
      buildTranscript([
        { role: 'user', content: 'go' },
        { role: 'assistant', tool_calls: [{ id: 'a', function: { name: 'run', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'done' },
      ]),
    );
    expect(text).toBe('### user\ngo\n\n### assistant\n(no text)\nTool calls:\n- run args={}\n\n### tool (run)\ndone\n');
  });
});

describe('boundExistingSkills', () => {
  it('bounds body excerpts to their head and redacts them', () => {
    const skill: ExistingSkill = {
      name: 'Weather',
      description: 'token=abc123',
      bodyExcerpt: `  ## Steps\n1. call with Authorization: Bearer abcdefghijklmnop\n${'more '.repeat(500)}`,
      managed: true,
      skillId: 'weather',
    };
    const [out] = boundExistingSkills([skill], { maxExcerptBytes: 120 });
    expect(bytes(out.bodyExcerpt)).toBeLessThanOrEqual(120);
    expect(out.bodyExcerpt.startsWith('## Steps\n1. call with Authorization: Bearer [REDACTED]')).toBe(true);
    expect(out.bodyExcerpt.endsWith('[truncated]')).toBe(true);
    expect(out.description).toBe('token=[REDACTED]');
    expect(out.managed).toBe(true);
  });
});
