import { describe, expect, it } from 'vitest';
import { InputError, parseInput } from '../../core/errors';
import { LearningJobRequestSchema, scopeKey } from '../../core';

describe('bad input gets a clear error naming the problem', () => {
  it('a malformed session payload names the event and field', () => {
    const request = {
      app: 'shop',
      user: 'u1',
      sessionId: 's1',
      events: [
        { role: 'user', content: 'hi' },
        { role: 'robot', content: 'beep' },
        { role: 'assistant', tool_calls: [{ function: { arguments: '{}' } }] },
      ],
    };
    let err: unknown;
    try {
      parseInput(LearningJobRequestSchema, request, 'learning job request');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^invalid learning job request:/);
    expect(msg).toContain('events[1].role');
    expect(msg).toContain('events[2].tool_calls[0].function.name');
  });

  it('a content part nested too deeply is a clear input error, not a RangeError (issue 10, item 8)', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { inner: deep };
    const request = { app: 'a', user: 'u', sessionId: 's', events: [{ role: 'user', content: [{ type: 'data', data: deep }] }] };
    let err: unknown;
    try {
      parseInput(LearningJobRequestSchema, request, 'learning job request');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/nested deeper than \d+ levels[\s\S]*events\[0\]\.content\[0\]/);
    const shallow = { app: 'a', user: 'u', sessionId: 's', events: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/i.png', detail: 'low' } }] }] };
    expect(() => parseInput(LearningJobRequestSchema, shallow, 'learning job request')).not.toThrow();
  });

  it('a request with neither events nor payloadRef says so', () => {
    expect(() => parseInput(LearningJobRequestSchema, { app: 'a', user: 'u', sessionId: 's' }, 'learning job request')).toThrow(/give exactly one of events or payloadRef/);
  });

  it('a bad timestamp and an out-of-range outcome score are named', () => {
    const request = { app: 'a', user: 'u', sessionId: 's', events: [{ role: 'user', content: 'x', timestamp: 'yesterday' }], outcome: { status: 'success', score: 1.5 } };
    expect(() => parseInput(LearningJobRequestSchema, request, 'learning job request')).toThrow(
      /timestamp must be an ISO-8601 date-time[\s\S]*outcome score must be in \[0,1\]|outcome score must be in \[0,1\][\s\S]*timestamp/,
    );
  });

  it('a hostile scope id is confined to one safe key segment', () => {
    const key = scopeKey({ mode: 'user', app: '../../etc', user: 'a/b' });
    expect(key).toMatch(/^users\/id-[0-9a-f]+\/id-[0-9a-f]+$/);
    expect(key).not.toContain('..');
  });
});
