import { describe, expect, it } from 'vitest';
import { redactOutcome, redactSessionEvents, type SessionEvent } from '../../core';

describe('redactSessionEvents', () => {
  it('redacts text, content parts and tool-call arguments, keeping everything else', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const events: SessionEvent[] = [
      { role: 'user', content: `my key is ${key}`, timestamp: '2026-11-29T10:00:00Z' },
      { role: 'user', content: [{ type: 'text', text: `again ${key}` }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: JSON.stringify({ command: `export AWS_ACCESS_KEY_ID=${key}` }) } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ];
    const out = redactSessionEvents(events);
    expect(JSON.stringify(out)).not.toContain(key);
    expect(out[0]).toMatchObject({ role: 'user', timestamp: '2026-11-29T10:00:00Z' });
    expect(out[0]!.content).toContain('[REDACTED]');
    expect(out[2]!.tool_calls![0]!.function.name).toBe('shell');
    expect(out[3]).toEqual(events[3]);
  });

  it('redacts every string a client can send: message names, tool names, call ids and any field of a content part', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const events = [
      { role: 'user', name: `ops_${key}`, content: [{ type: 'image_url', image_url: { url: `https://x.example/i.png?sig=s1gcanary12345` }, extra: [`DB_PASSWORD=pw_canary_1`] }] },
      { role: 'assistant', content: null, tool_calls: [{ id: `call_${key}`, type: 'function', function: { name: `deploy_${key}`, arguments: '{}' } }] },
      { role: 'tool', tool_call_id: `call_${key}`, name: `deploy_${key}`, content: 'ok' },
    ] as SessionEvent[];
    const text = JSON.stringify(redactSessionEvents(events));
    for (const canary of [key, 's1gcanary12345', 'pw_canary_1']) expect(text).not.toContain(canary);
    const out = redactSessionEvents(events);
    expect(out[1]!.tool_calls![0]!.function.name).toBe('deploy_[REDACTED]');
    // the call id and the tool result's reference stay equal, so tool names still resolve
    expect(out[2]!.tool_call_id).toBe(out[1]!.tool_calls![0]!.id);
  });
});

describe('redactOutcome', () => {
  it('redacts the notes and the evaluator, keeping status and score', () => {
    const out = redactOutcome({ status: 'fail', score: 0.2, notes: 'deploy failed: DB_PASSWORD=hunter2canary', evaluator: 'ci?access_token=acc3sscanary' });
    expect(out).toEqual({ status: 'fail', score: 0.2, notes: 'deploy failed: DB_PASSWORD=[REDACTED]', evaluator: 'ci?access_token=[REDACTED]' });
    expect(redactOutcome(undefined)).toBeUndefined();
  });
});
