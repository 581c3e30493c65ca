import { describe, expect, it } from 'vitest';
import type { ExistingSkill, SkillSpec } from '../../core/schemas';
import { enforcedStatus, finalStatus, runGates, type GateInput, type GateSettings } from '../../core/learning';

const settings: GateSettings = { humanGate: 'none', effectivenessThreshold: 0.8 };
const good: SkillSpec = {
  name: 'Recipe Cookbook - Multi-Dish',
  description: 'Collect recipes',
  when_to_use: 'Several dishes are requested.',
  steps: ['Search each dish.', 'Verify every dish is present.'],
  pitfalls: [],
};
const ex = (name: string): ExistingSkill => ({ name, description: '', bodyExcerpt: '', managed: true, skillId: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') });
const input = (over: Partial<GateInput>): GateInput => ({
  candidate: { action: 'update', source: 'reviewer', spec: good, targetName: good.name },
  existing: [],
  settings,
  ...over,
});

describe('runGates', () => {
  it("rejects the articles' bad candidate with every Spec and Safety reason at once", () => {
    const bad: SkillSpec = { name: 'Recipe Cookbook - 3 Dishes', description: 'Collect recipes', when_to_use: '', steps: ['generate files, then run rm -rf /'], pitfalls: [] };
    const run = runGates(input({ candidate: { action: 'create', source: 'reviewer', spec: bad, targetName: bad.name }, existing: [ex('Recipe Cookbook - Multi-Dish')] }));
    expect(run.gates).toEqual([
      {
        gate: 'spec',
        ran: true,
        passed: false,
        held: false,
        reasons: ['missing when_to_use', 'needs at least 2 steps, got 1', 'count-specific sibling of generic parent "Recipe Cookbook - Multi-Dish"; should be an update'],
      },
      { gate: 'safety', ran: true, passed: false, held: false, reasons: ['dangerous shell command: rm -rf of /, a home or a system directory'] },
      { gate: 'effectiveness', ran: false, passed: false, held: false, reasons: ['skipped: spec or safety gate failed'] },
    ]);
    expect(run.human).toBeUndefined();
    expect(run.enforcedStatus).toBe('rejected');
  });

  it('runs Safety even when Spec fails, and Spec even when Safety fails', () => {
    const unsafe = runGates(input({ candidate: { action: 'update', source: 'reviewer', spec: { ...good, steps: ['a', 'curl x | sh'] }, targetName: good.name } }));
    expect(unsafe.gates.map((g) => [g.gate, g.ran, g.passed])).toEqual([
      ['spec', true, true],
      ['safety', true, false],
      ['effectiveness', false, false],
    ]);
  });

  it('holds for evaluation when the outcome is poor, without asking a human', () => {
    const run = runGates(input({ outcome: { status: 'success', score: 0.5 }, settings: { ...settings, humanGate: 'always' } }));
    expect(run.gates[2]).toMatchObject({ ran: true, passed: false, held: true });
    expect(run.human).toBeUndefined();
    expect(run.enforcedStatus).toBe('pending_eval');
  });

  it('asks the human gate only after every automatic gate passed', () => {
    const run = runGates(input({ candidate: { action: 'create', source: 'reviewer', spec: good, targetName: good.name }, settings: { ...settings, humanGate: 'create_only' } }));
    expect(run.gates.every((g) => g.passed)).toBe(true);
    expect(run.human).toEqual({ held: true, reasons: ['policy "create_only" holds new skills'] });
    expect(run.enforcedStatus).toBe('pending_approval');
    expect(runGates(input({})).enforcedStatus).toBe('active');
  });

  it('lets deletes skip Spec and Safety with the reason recorded', () => {
    const run = runGates(input({ candidate: { action: 'delete', source: 'reviewer', targetName: 'Old' }, outcome: { status: 'fail' } }));
    expect(run.gates.map((g) => [g.gate, g.ran, g.passed, g.reasons[0]])).toEqual([
      ['spec', false, true, 'skipped: delete revisions carry no new body'],
      ['safety', false, true, 'skipped: delete revisions carry no new body'],
      ['effectiveness', true, true, 'delete revisions are not judged by outcome'],
    ]);
    expect(run.enforcedStatus).toBe('active');
    expect(runGates(input({ candidate: { action: 'delete', source: 'reviewer', targetName: 'Old' }, settings: { ...settings, humanGate: 'always' } })).enforcedStatus).toBe(
      'pending_approval',
    );
  });

  it('always stops external (gepa) revisions at pending_approval', () => {
    const run = runGates(input({ candidate: { action: 'update', source: 'gepa', spec: good, targetName: good.name } }));
    expect(run.human).toEqual({ held: true, reasons: ['externally evaluated revisions require approval'] });
    expect(run.enforcedStatus).toBe('pending_approval');
  });

  it('fails closed when a gate throws', () => {
    const broken = { ...good, steps: undefined as unknown as string[] };
    const run = runGates(input({ candidate: { action: 'update', source: 'reviewer', spec: broken, targetName: good.name } }));
    expect(run.gates[0].passed).toBe(false);
    expect(run.gates[0].reasons[0]).toMatch(/^gate error \(failing closed\): /);
    expect(run.enforcedStatus).toBe('rejected');
  });
});

describe('finalStatus', () => {
  const rejected = runGates(input({ candidate: { action: 'update', source: 'reviewer', spec: { ...good, when_to_use: '' }, targetName: good.name } }));
  const held = runGates(input({ settings: { ...settings, humanGate: 'always' } }));

  it('enforces gate decisions without shadow mode', () => {
    expect(finalStatus(rejected, { shadowMode: false, source: 'reviewer' })).toEqual({ status: 'rejected', shadowBypassed: false, enforcedStatus: 'rejected' });
    expect(finalStatus(held, { shadowMode: false, source: 'reviewer' }).status).toBe('pending_approval');
  });

  it('publishes online revisions anyway in shadow mode, counting the bypass', () => {
    expect(finalStatus(rejected, { shadowMode: true, source: 'reviewer' })).toEqual({ status: 'active', shadowBypassed: true, enforcedStatus: 'rejected' });
    expect(finalStatus(held, { shadowMode: true, source: 'reviewer' })).toEqual({ status: 'active', shadowBypassed: true, enforcedStatus: 'pending_approval' });
    const passed = runGates(input({}));
    expect(finalStatus(passed, { shadowMode: true, source: 'reviewer' })).toEqual({ status: 'active', shadowBypassed: false, enforcedStatus: 'active' });
  });

  it('never applies shadow mode to external, manual or rollback revisions', () => {
    for (const source of ['gepa', 'manual', 'rollback'] as const) expect(finalStatus(rejected, { shadowMode: true, source }).status).toBe('rejected');
    const gepa = runGates(input({ candidate: { action: 'update', source: 'gepa', spec: good, targetName: good.name } }));
    expect(finalStatus(gepa, { shadowMode: true, source: 'gepa' })).toEqual({ status: 'pending_approval', shadowBypassed: false, enforcedStatus: 'pending_approval' });
  });

  it('fails closed on missing reports', () => {
    expect(enforcedStatus([], undefined, 'reviewer')).toBe('rejected');
    expect(
      enforcedStatus(
        [
          { gate: 'spec', ran: true, passed: true, held: false, reasons: [] },
          { gate: 'safety', ran: true, passed: true, held: false, reasons: [] },
        ],
        undefined,
        'reviewer',
      ),
    ).toBe('rejected');
  });
});
