import { describe, expect, it } from 'vitest';
import { existingNames, findExistingSkill, reconcileDecision, skillIdForName, type ExistingSkill } from '../../core';

const skill = (name: string, managed = true): ExistingSkill => ({
  name,
  description: `about ${name}`,
  bodyExcerpt: '',
  managed,
  skillId: skillIdForName(name),
  revisionId: `${name}-r1`,
});

describe('existingNames (what the reconciler and the Spec gate derive from a scope’s names)', () => {
  const list = [skill('Weather Report'), skill('weather  report', false), skill(''), skill('Deploy - Staging'), skill('Deploy')];

  it('finds names by normalized form in list order, orders parents longest first (stable), and names ids as skillIdForName does', () => {
    const names = existingNames(list);
    expect(names.byNorm.get('weather report')).toEqual([0, 1]);
    expect(names.byNorm.has('')).toBe(false);
    expect(names.byLengthDesc.map((p) => p.name)).toEqual(['Deploy - Staging', 'Weather Report', 'weather  report', 'Deploy']);
    expect(list.map((_, i) => names.idAt(i))).toEqual(list.map((s) => skillIdForName(s.name)));
    expect(names.withWords.map((p) => p.name)).toEqual(['Weather Report', 'weather  report', 'Deploy - Staging']);
  });

  it('keeps the derived names of a frozen list only: a list that can change gets them afresh', () => {
    const frozen = Object.freeze([...list]);
    expect(existingNames(frozen)).toBe(existingNames(frozen));
    const open = [...list];
    expect(existingNames(open)).not.toBe(existingNames(open));
    open.push(skill('Weather Report - Paris'));
    expect(existingNames(open).byNorm.get('weather report - paris')).toEqual([5]);
  });

  it('a new version of a frozen list reuses the per-name work of the previous one for the names it still has', () => {
    const v1 = Object.freeze([skill('Weather Report'), skill('Deploy - Staging')]);
    const n1 = existingNames(v1);
    const deployWords = n1.withWords.find((p) => p.name === 'Deploy - Staging')!.words;
    const v2 = Object.freeze([skill('Deploy - Staging'), skill('Backup Restore Nightly')]);
    const n2 = existingNames(v2, v1);
    expect(n2.withWords.map((p) => p.name)).toEqual(['Deploy - Staging', 'Backup Restore Nightly']);
    expect(n2.withWords[0]!.words).toBe(deployWords);
    expect(v2.map((_, i) => n2.idAt(i))).toEqual(v2.map((s) => skillIdForName(s.name)));
    expect(n2.byNorm.has('weather report')).toBe(false);
  });

  it('gives the reconciler the same answers for a frozen list and a plain one', () => {
    const decision = {
      skip_reason: '',
      creates: [
        { name: 'Deploy - Staging v2', description: 'd', when_to_use: 'w', steps: ['a', 'b'], pitfalls: [] },
        { name: 'weather report', description: 'd', when_to_use: 'x', steps: ['c', 'd'], pitfalls: [] },
      ],
      updates: [{ name: 'deploy', reason: 'r', new_spec: { name: 'deploy', description: 'd', when_to_use: 'w', steps: ['a', 'b'], pitfalls: [] } }],
      deletions: [],
    };
    const plain = reconcileDecision(decision, [...list]);
    expect(reconcileDecision(decision, Object.freeze([...list]))).toEqual(plain);
    expect(plain.decision.updates.map((u) => u.name)).toEqual(['Deploy', 'Deploy - Staging', 'Weather Report']);
    expect(findExistingSkill('WEATHER REPORT', Object.freeze([...list]))?.name).toBe('Weather Report');
  });
});
