import { describe, expect, it } from 'vitest';
import { applyComponent, COMPONENT_ORDER, componentAt, nextComponentCursor, specFingerprint } from '../../core/gepa';
import type { SkillSpec } from '../../core/schemas';

const spec: SkillSpec = { name: 'w', description: 'desc', when_to_use: 'when', steps: ['a', 'b'], pitfalls: ['p'] };

describe('skill components', () => {
  it('cycles steps → pitfalls → when_to_use → description', () => {
    expect(COMPONENT_ORDER).toEqual(['steps', 'pitfalls', 'when_to_use', 'description']);
    let cursor = 0;
    const seen = [];
    for (let i = 0; i < 6; i++) {
      seen.push(componentAt(cursor));
      cursor = nextComponentCursor(cursor);
    }
    expect(seen).toEqual(['steps', 'pitfalls', 'when_to_use', 'description', 'steps', 'pitfalls']);
  });

  it('changes only the named component', () => {
    const cases = [
      ['steps', ['x', ' y ', ''], { steps: ['x', 'y'] }],
      ['pitfalls', [], { pitfalls: [] }],
      ['when_to_use', ' new trigger ', { when_to_use: 'new trigger' }],
      ['description', 'new desc', { description: 'new desc' }],
    ] as const;
    for (const [component, value, change] of cases) {
      const r = applyComponent(spec, component, value);
      expect(r).toEqual({ ok: true, spec: { ...spec, ...change } });
    }
    expect(spec).toEqual({ name: 'w', description: 'desc', when_to_use: 'when', steps: ['a', 'b'], pitfalls: ['p'] });
  });

  it('rejects a value of the wrong shape or one that breaks the spec', () => {
    expect(applyComponent(spec, 'steps', 'one string')).toEqual({ ok: false, reason: 'steps must be a list of strings' });
    expect(applyComponent(spec, 'description', ['a'])).toEqual({ ok: false, reason: 'description must be a string' });
    expect(applyComponent(spec, 'description', '   ')).toEqual({ ok: false, reason: 'description must not be empty' });
    expect(applyComponent(spec, 'steps', [' '])).toEqual({ ok: false, reason: 'at least one step is required' });
    const tooLong = applyComponent(spec, 'steps', ['x'.repeat(5000)]);
    expect(tooLong.ok).toBe(false);
  });

  it('fingerprints by content', () => {
    expect(specFingerprint(spec)).toMatch(/^[0-9a-f]{16}$/);
    expect(specFingerprint({ ...spec, steps: [...spec.steps] })).toBe(specFingerprint(spec));
    expect(specFingerprint({ ...spec, steps: ['a', 'b', 'c'] })).not.toBe(specFingerprint(spec));
    // Field boundaries matter: moving text between fields changes the fingerprint.
    expect(specFingerprint({ ...spec, steps: ['ab'] })).not.toBe(specFingerprint({ ...spec, steps: ['a', 'b'] }));
  });
});
