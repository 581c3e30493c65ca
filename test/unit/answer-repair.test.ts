import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fillReflectionAnswer } from '../../core/gepa/reflection-answer-repair';
import { nameNamelessUpdateSpecs, normalizeReviewDecision, ReviewDecisionSchema } from '../../core';
import { dropTrailingCommas, firstBalancedObject, formatRepair, isResponseFormatRefusal, jsonFromModelText, missingDefaultedKeys, nextFormatLevel } from '../../core/llm';

// One test per kind of repair a non-strict model's answer gets (core/llm, and the
// reviewer's and reflector's structural tolerances), and what is never repaired.
const kinds = (text: string) => {
  const r = jsonFromModelText(text);
  if (!r.ok) throw new Error(r.error);
  return { value: r.value, kinds: r.repairs.map((x) => x.kind) };
};

describe('jsonFromModelText', () => {
  it('takes bare JSON as it is, with no repair', () => {
    expect(kinds('  {"a": [1, 2]}\n')).toEqual({ value: { a: [1, 2] }, kinds: [] });
  });

  it('code_fence: the object inside a ```json fence (or a bare ``` fence)', () => {
    expect(kinds('```json\n{"a": 1}\n```')).toEqual({ value: { a: 1 }, kinds: ['code_fence'] });
    expect(kinds('```\n{"a": 1}\n```')).toEqual({ value: { a: 1 }, kinds: ['code_fence'] });
  });

  it('prose_around_json: text before and after the object, fenced or not', () => {
    expect(kinds('Here is the decision: {"a": {"b": "}"}} Hope it helps.')).toEqual({ value: { a: { b: '}' } }, kinds: ['prose_around_json'] });
    expect(kinds('Sure!\n\n```json\n{"a": 1}\n```\nAnything else?')).toEqual({ value: { a: 1 }, kinds: ['code_fence', 'prose_around_json'] });
  });

  it('trailing_comma: a comma before } or ] is dropped, never one inside a string', () => {
    expect(kinds('{"a": [1, 2,], "b": "x,}",\n}')).toEqual({ value: { a: [1, 2], b: 'x,}' }, kinds: ['trailing_comma'] });
    expect(dropTrailingCommas('{"s": "a, ]", "t": [1 , ] }')).toBe('{"s": "a, ]", "t": [1  ] }');
  });

  it('all at once, as a non-strict local model answers', () => {
    expect(kinds('Sure! Here is the review decision:\n\n```json\n{\n  "creates": [\n    {"name": "x",},\n  ],\n}\n```\n\nLet me know.')).toEqual({
      value: { creates: [{ name: 'x' }] },
      kinds: ['code_fence', 'prose_around_json', 'trailing_comma'],
    });
  });

  it('never repairs a truncated answer or other broken syntax: an error naming the problem', () => {
    const truncated = jsonFromModelText('{"skip_reason": "", "creates": [{"name": "x"');
    expect(truncated).toMatchObject({ ok: false });
    expect(!truncated.ok && truncated.error).toMatch(/never closes/);
    expect(jsonFromModelText("{'single': 'quotes'}")).toMatchObject({ ok: false });
    expect(jsonFromModelText('no JSON here')).toMatchObject({ ok: false });
    expect(firstBalancedObject('a { "b": "\\"}" ')).toBeUndefined();
  });
});

describe('missingDefaultedKeys (missing_optional_key)', () => {
  it('names each optional key that takes its default, in nested objects and arrays; required ones are the schema’s business', () => {
    const answer = {
      creates: [{ name: 'n', description: 'd', when_to_use: 'w', steps: ['s'] }],
      updates: [{ name: 'u', new_spec: { name: 'u', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] } }],
    };
    expect(missingDefaultedKeys(ReviewDecisionSchema, answer).map((r) => r.path)).toEqual(['skip_reason', 'creates[0].pitfalls', 'updates[0].reason', 'deletions']);
    expect(missingDefaultedKeys(z.object({ a: z.string(), b: z.number().default(1) }), {})).toEqual([{ kind: 'missing_optional_key', path: 'b' }]);
    expect(missingDefaultedKeys(ReviewDecisionSchema, { skip_reason: '', creates: [], updates: [], deletions: [] })).toEqual([]);
  });
});

describe("the reviewer's tolerance (update_name_for_new_spec)", () => {
  it("a nameless new_spec takes its update's name, and the answer then passes the schema and normalisation", () => {
    const raw = {
      updates: [
        { name: 'weather-report', new_spec: { description: 'd', when_to_use: 'w', steps: ['s'] } },
        { name: 'b', new_spec: { name: 'b', description: 'd', when_to_use: 'w', steps: ['s'] } },
      ],
    };
    expect(ReviewDecisionSchema.safeParse(raw).success).toBe(false);
    const { value, repairs } = nameNamelessUpdateSpecs(raw);
    expect(repairs).toEqual([{ kind: 'update_name_for_new_spec', path: 'updates[0].new_spec.name' }]);
    const decision = normalizeReviewDecision(ReviewDecisionSchema.parse(value));
    expect(decision.updates.map((u) => [u.name, u.new_spec.name])).toEqual([
      ['weather-report', 'weather-report'],
      ['b', 'b'],
    ]);
  });

  it('leaves alone what it cannot name: no update name, no new_spec, not an object', () => {
    for (const answer of [{ updates: [{ new_spec: {} }] }, { updates: [{ name: 'x' }] }, 'text', null, { updates: 'no' }]) {
      expect(nameNamelessUpdateSpecs(answer)).toEqual({ value: answer, repairs: [] });
    }
  });
});

describe("the reflector's tolerance (requested_component, missing rationale)", () => {
  it('fills the requested component and a blank rationale when left out, and only then', () => {
    expect(fillReflectionAnswer({ new_value: ['a'] }, 'steps')).toEqual({
      value: { new_value: ['a'], component: 'steps', rationale: '' },
      repairs: [
        { kind: 'requested_component', path: 'component' },
        { kind: 'missing_optional_key', path: 'rationale' },
      ],
    });
    const full = { component: 'pitfalls', new_value: ['a'], rationale: 'r' };
    expect(fillReflectionAnswer(full, 'steps')).toEqual({ value: full, repairs: [] });
  });
});

describe('response format fallback', () => {
  it('json_schema → json_object → plain, each below json_schema recorded as a repair', () => {
    expect(nextFormatLevel('json_schema')).toBe('json_object');
    expect(nextFormatLevel('json_object')).toBe('plain');
    expect(nextFormatLevel('plain')).toBeUndefined();
    expect([formatRepair('json_schema'), formatRepair('json_object'), formatRepair('plain')]).toEqual([undefined, { kind: 'format_json_object' }, { kind: 'format_plain' }]);
  });

  it('a refusal is a client error naming the response format; other errors are not', () => {
    expect(isResponseFormatRefusal({ status: 400, message: "response_format type 'json_schema' is not supported" })).toBe(true);
    expect(isResponseFormatRefusal({ status: 422, message: 'Invalid request', param: 'response_format.type' })).toBe(true);
    expect(isResponseFormatRefusal({ status: 400, message: "'response_format.type' must be 'json_schema' or 'text'" })).toBe(true);
    expect(isResponseFormatRefusal({ status: 400, message: 'context length exceeded' })).toBe(false);
    expect(isResponseFormatRefusal({ status: 500, message: 'json_schema backend crashed' })).toBe(false);
    expect(isResponseFormatRefusal({ message: 'response_format' })).toBe(false);
  });
});
