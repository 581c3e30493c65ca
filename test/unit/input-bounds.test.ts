import { describe, expect, it } from 'vitest';
import { boundText, boundThrough, buildTranscript, INPUT_LIMITS, LearningJobRequestSchema, PRE_CUT_FACTOR, redactSecrets, SessionEventsSchema, utf8ByteLength } from '../../core';
import { checkLearningJobInput } from '../../core/workflow-inputs';
import { VALID_SEGMENT } from '../support/workflow-inputs';

// Issue 31 item 5: bounded input. Caps in the schemas and the workflow input checks; every
// message cut to a few times its budget before redaction reads it.

const SECRET = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const MARKER = /\n\.\.\.\[\d+ bytes truncated\]\.\.\.\n/;

describe('boundThrough: redaction sees a few times the budget, not the input', () => {
  it('an 8 MB tool message: redaction reads at most PRE_CUT_FACTOR × budget, and the result is bounded and redacted', () => {
    const big = `${SECRET} head ${'lorem ipsum '.repeat(700_000)} tail ${SECRET}`;
    const seen: number[] = [];
    const out = boundThrough(big, 4000, (part) => (seen.push(part.length), redactSecrets(part)));
    expect(seen.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(PRE_CUT_FACTOR * 4000);
    expect(utf8ByteLength(out)).toBeLessThanOrEqual(4000);
    expect(out).not.toContain(SECRET);
    expect(out.startsWith('[REDACTED')).toBe(true);
    const omitted = Number(/\[(\d+) bytes truncated\]/.exec(out)![1]);
    expect(omitted).toBeGreaterThan(utf8ByteLength(big) - 4000);
  });

  it('is what redacting everything and then bounding gives, up to the marker', () => {
    const text = `${SECRET} ${'a'.repeat(30_000)} ${'b'.repeat(30_000)} password=hunter2hunter2 end`;
    const [head, tail] = boundThrough(text, 4000, redactSecrets).split(MARKER);
    const [fullHead, fullTail] = boundText(redactSecrets(text), 4000).split(MARKER);
    expect(head).toBe(fullHead);
    expect(tail).toBe(fullTail);
  });

  it('a secret cut at a pre-cut edge is never shown, even when redaction shrinks the head', () => {
    const budget = 1000;
    const headKeep = Math.floor(PRE_CUT_FACTOR * budget * 0.75);
    // The head is all secrets (redacted to short markers), then a secret straddles the pre-cut edge.
    const secrets = `${SECRET} `.repeat(Math.floor((headKeep - 20) / (SECRET.length + 1)));
    const text = `${secrets}${'x'.repeat(headKeep - secrets.length - 10)}${SECRET}${'y'.repeat(50_000)}`;
    const out = boundThrough(text, budget, redactSecrets);
    expect(out).not.toMatch(/sk-proj/);
    expect(utf8ByteLength(out)).toBeLessThanOrEqual(budget);
  });

  it('the transcript bounds an 8 MB tool result through it', () => {
    const t = buildTranscript([
      { role: 'user', content: 'Fetch the report.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fetch', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: `${SECRET}\n${'row,1,2,3\n'.repeat(800_000)}` },
      { role: 'assistant', content: 'Done.' },
    ]);
    const tool = t.messages.find((m) => m.role === 'tool')!;
    expect(utf8ByteLength(tool.content)).toBeLessThanOrEqual(4000);
    expect(tool.content).not.toContain(SECRET);
    expect(tool.toolName).toBe('fetch');
  });
});

describe('input caps in the schemas and the workflow input checks', () => {
  it('refuse too many events, an over-long string, too many tool calls, with the field named', () => {
    const problems = (events: unknown) => {
      const r = SessionEventsSchema.safeParse(events);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems(Array.from({ length: INPUT_LIMITS.maxEvents + 1 }, () => ({ role: 'user', content: 'hi' })))).toEqual([': more than 10000 events in one segment']);
    expect(problems([{ role: 'tool', tool_call_id: 'c1', content: 'x'.repeat(8 * 1024 * 1024) }])).toEqual(['0.content: message content longer than 1000000 characters']);
    expect(problems([{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(INPUT_LIMITS.maxStringChars + 1) }] }])).toEqual([
      '0.content.0.text: content part text longer than 1000000 characters',
    ]);
    const call = { type: 'function', function: { name: 'f', arguments: 'x'.repeat(INPUT_LIMITS.maxStringChars + 1) } };
    expect(problems([{ role: 'assistant', tool_calls: [call] }])).toEqual(['0.tool_calls.0.function.arguments: tool call arguments longer than 1000000 characters']);
    const calls = Array.from({ length: INPUT_LIMITS.maxToolCalls + 1 }, (_, i) => ({ id: `c${i}`, function: { name: 'f', arguments: '{}' } }));
    expect(problems([{ role: 'assistant', tool_calls: calls }])).toEqual(['0.tool_calls: more than 128 tool calls in one message']);
    expect(problems([{ role: 'user', content: 'x'.repeat(INPUT_LIMITS.maxStringChars) }])).toEqual([]);
  });

  it('a segment that says it is beyond the bounds fails its input check before anything is read', () => {
    const ref = { sha256: 'a'.repeat(64), bytes: 100 * 1024 * 1024 };
    expect(LearningJobRequestSchema.safeParse({ app: 'a', user: 'u', sessionId: 's', payloadRef: ref }).success).toBe(false);
    expect(checkLearningJobInput({ segment: { ...VALID_SEGMENT, payloadRef: ref, eventCount: 20_000 } })).toEqual([
      'segment.eventCount: expected an integer >= 0 and <= 10000, got 20000',
      'segment.payloadRef.bytes: expected an integer >= 0 and <= 16777216, got 104857600',
    ]);
  });
});
