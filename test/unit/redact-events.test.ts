import { describe, expect, it } from 'vitest';
import { redactSessionEvents, type SessionEvent } from '../../core';

describe('redactSessionEvents', () => {
  it('redacts text, content parts and tool-call arguments, keeping everything else', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const events: SessionEvent[] = [
      { role: 'user', content: `my key is ${key}`, timestamp: '2026-11-29T10:00:00Z' },
      { role: 'user', content: [{ type: 'text', text: `again ${key}` }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: JSON.stringify({ command: `export AWS_ACCESS_KEY_ID=${key}` }) } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ];
    const out = redactSessionEvents(events);
    expect(JSON.stringify(out)).not.toContain(key);
    expect(out[0]).toMatchObject({ role: 'user', timestamp: '2026-11-29T10:00:00Z' });
    expect(out[0]!.content).toContain('[REDACTED]');
    expect(out[2]!.tool_calls![0]!.function.name).toBe('shell');
    expect(out[3]).toEqual(events[3]);
  });
});
