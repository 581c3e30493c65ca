import { describe, expect, it } from 'vitest';
import { buildReflectionMessages, buildReflectionRecords, FIELD_MAX_BYTES, parseReflection, REFLECTOR_ROLE_LINE, ReflectionAnswerSchema } from '../../core/gepa';
import { utf8ByteLength } from '../../core/skills';
import { reflect } from '../../infra/model-server/reflector';
import type { Case, Evaluation, SkillSpec } from '../../core/schemas';

const spec: SkillSpec = { name: 'weather', description: 'Reports weather.', when_to_use: 'Weather questions.', steps: ['Call the API.'], pitfalls: [] };

function section(user: string, title: string): string {
  const start = user.indexOf(`## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = user.slice(start + title.length + 4);
  const next = rest.indexOf('\n## ');
  return (next < 0 ? rest : rest.slice(0, next)).trim();
}

function jsonBlock(text: string): unknown {
  const m = /^```json\n([\s\S]*)\n```$/.exec(text);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]);
}

describe('reflection prompt', () => {
  const c: Case = { id: 'fb-1', input: { cities: ['Paris'] }, expected: 'all cities', critical: false };
  const e: Evaluation = { caseId: 'fb-1', score: 0.25, output: 'Paris: ?', feedback: 'missing: retry with backoff', trace: 'weather(Paris) → timeout' };

  it('has the stable contract: role line, three sections, JSON code blocks', () => {
    const [system, user] = buildReflectionMessages({ spec, component: 'pitfalls', records: [{ case: c, evaluation: e }] });
    expect(system.role).toBe('system');
    expect(system.content.startsWith(`${REFLECTOR_ROLE_LINE}\n`)).toBe(true);
    expect(user.role).toBe('user');
    expect(user.content.match(/^## .*$/gm)).toEqual(['## Current skill', '## Component to rewrite', '## Case records']);
    expect(jsonBlock(section(user.content, 'Current skill'))).toEqual(spec);
    expect(section(user.content, 'Component to rewrite')).toBe('pitfalls');
    expect(jsonBlock(section(user.content, 'Case records'))).toEqual([
      {
        caseId: 'case-1',
        input: '{"cities":["Paris"]}',
        expected: 'all cities',
        output: 'Paris: ?',
        score: 0.25,
        feedback: 'missing: retry with backoff',
        trace: 'weather(Paris) → timeout',
      },
    ]);
  });

  it('bounds each field head+tail, keeps backticks from closing a code block, and redacts credentials', () => {
    const long = 'HEAD' + 'é'.repeat(5000) + 'TAIL';
    const evaluation: Evaluation = { caseId: 'fb-1', score: 0, output: long, feedback: 'see ```\n``` here', trace: 'api_key=sk-abcdefghijklmnopqrstuvwxyz123456' };
    const [, user] = buildReflectionMessages({ spec, component: 'steps', records: [{ case: c, evaluation }] });
    // Only the four fences of the two code blocks: no backtick run survives inside the JSON.
    expect(user.content.match(/```/g)).toHaveLength(4);
    const [record] = jsonBlock(section(user.content, 'Case records')) as { output: string; feedback: string; trace: string }[];
    expect(utf8ByteLength(record.output)).toBeLessThanOrEqual(FIELD_MAX_BYTES);
    expect(record.output.startsWith('HEAD')).toBe(true);
    expect(record.output.endsWith('TAIL')).toBe(true);
    expect(record.output).toMatch(/truncated/);
    expect(record.feedback).toBe('see ```\n``` here');
    expect(record.trace).not.toContain('sk-abcdefghijklmnopqrstuvwxyz123456');
  });
});

describe('reflection records are trimmed (reference semantics)', () => {
  it('trims every case field and leaves out optional fields that are blank once trimmed', () => {
    const c: Case = { id: 'x', input: '  \n what is the weather? \n', expected: '   ', critical: false };
    const e: Evaluation = { caseId: 'x', score: 0.5, output: '\t Paris: 21C  ', feedback: '\n\n', trace: '  step 1  ' };
    expect(buildReflectionRecords({ records: [{ case: c, evaluation: e }] })).toEqual([
      { caseId: 'case-1', input: 'what is the weather?', output: 'Paris: 21C', score: 0.5, trace: 'step 1' },
    ]);
  });

  it('trims the current skill fields it shows the reflector', () => {
    const [, user] = buildReflectionMessages({ spec: { ...spec, description: '  Reports weather.\n', steps: [' Call the API. '] }, component: 'steps', records: [] });
    expect(jsonBlock(section(user.content, 'Current skill'))).toEqual(spec);
  });
});

describe('contract with the local model server', () => {
  it('parses our prompt and answers for the requested component with the missing phrases', () => {
    const c: Case = { id: 'fb-9', input: 'Paris, Tokyo', critical: false };
    const e: Evaluation = { caseId: 'fb-9', score: 0.1, feedback: 'missing: retry timed-out cities with exponential backoff' };
    const [, user] = buildReflectionMessages({ spec, component: 'steps', records: [{ case: c, evaluation: e }] });
    const { reflection } = reflect(user.content);
    const parsed = parseReflection(reflection, 'steps');
    expect(parsed).toMatchObject({ ok: true, newValue: ['Call the API.', 'Make sure to retry timed-out cities with exponential backoff.'] });
  });
});

describe('parsing the reflector answer', () => {
  it('accepts an answer for the requested component, as an object or JSON text', () => {
    expect(parseReflection({ component: 'steps', new_value: ['a', 'b'], rationale: ' because ' }, 'steps')).toEqual({ ok: true, newValue: ['a', 'b'], rationale: 'because' });
    expect(parseReflection('```json\n{"component":"description","new_value":"d2","rationale":"r"}\n```', 'description')).toEqual({
      ok: true,
      newValue: 'd2',
      rationale: 'r',
    });
  });

  it('rejects an answer that edits another component', () => {
    expect(parseReflection({ component: 'description', new_value: 'sneaky', rationale: 'r' }, 'steps')).toEqual({
      ok: false,
      reason: 'the answer edits "description" but only "steps" may be rewritten in this iteration',
    });
  });

  it('rejects a value of the wrong shape for the component, and malformed answers', () => {
    expect(parseReflection({ component: 'steps', new_value: 'one', rationale: 'r' }, 'steps')).toEqual({ ok: false, reason: 'new_value for steps must be a list of strings' });
    expect(parseReflection({ component: 'when_to_use', new_value: ['x'], rationale: 'r' }, 'when_to_use')).toEqual({
      ok: false,
      reason: 'new_value for when_to_use must be a string',
    });
    expect(parseReflection('{"component": "steps"', 'steps')).toEqual({ ok: false, reason: 'the answer is not valid JSON' });
    const missing = parseReflection({ component: 'steps', new_value: ['x'] }, 'steps');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.reason).toMatch(/^rationale: /);
  });

  it('exposes the answer schema for structured output', () => {
    expect(ReflectionAnswerSchema.safeParse({ component: 'pitfalls', new_value: [], rationale: '' }).success).toBe(true);
    expect(ReflectionAnswerSchema.safeParse({ component: 'name', new_value: 'x', rationale: '' }).success).toBe(false);
  });
});
