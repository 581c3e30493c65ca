import { describe, expect, it } from 'vitest';
import { SAFETY_SCAN_LIMIT, safetyFindings, safetyGate } from '../../core/learning';
import type { SkillSpec } from '../../core/schemas';

/**
 * A complexity check, not a benchmark: every safety rule must cost linear time, so no
 * input up to the scan limit may take long. A quadratic rule takes seconds on these inputs
 * (the review measured 1.5 s for "dd " repeated); a linear scan takes milliseconds. Each
 * input's time is the fastest of three runs, so a garbage collection does not count against
 * it; the bound is generous on purpose. On a machine busy enough to slow everything, the
 * bound scales with a linear baseline measured in the same run: text of the same length
 * that is as dense in commands as text can be (`a b;` repeated), which costs the most a
 * linear reading costs per character; a quadratic rule is hundreds of times slower than
 * that, not a few.
 */
const BOUND_MS = 50;
const BOUND_TIMES_BASELINE = 10;

/** Within the bound: absolute on a quiet machine, relative to the linear baseline on a busy one. */
function bound(baselineMs: number): number {
  return Math.max(BOUND_MS, BOUND_TIMES_BASELINE * baselineMs);
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fill = (unit: string, length = SAFETY_SCAN_LIMIT) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Repetitions of the tokens each rule starts from, with and without separators. */
const ADVERSARIAL_UNITS = [
  'dd ',
  'dd\n',
  'rm ',
  'rm -rf ',
  '-r ',
  'find / ',
  'chmod ',
  'mkfs ',
  'shred ',
  'curl ',
  'wget ',
  'wget -O a; ./a ',
  'eval $(curl ',
  '$(',
  '<(',
  '(',
  ')',
  '$(a ',
  '|',
  '| ',
  ';',
  'a;',
  '&',
  '&&',
  'base64 -d ',
  'xxd -r ',
  'printf x72x72x72 ',
  'sudo ',
  'env ',
  'xargs ',
  'ignore ',
  'ignore the ',
  'ignore all previous ',
  'hide ',
  'hide this ',
  'do not tell ',
  'send ',
  'send aaaaaaaaaaaaaaaaaaaaaaaaaaaaa ',
  'post to ',
  '~/.aws ',
  '.env ',
  'http://a.com ',
  '/',
  '//',
  '/./',
  '../',
  '\\',
  "'",
  '"',
  '`',
  '${a:',
  "$'",
  '$HOME',
  'x',
  'a'.repeat(63) + ' ',
  'a=',
  '=',
  '\u200b',
  '\u202e',
  'ｒｍ ',
  ':(){ ',
  '> /dev/',
  'of=/dev/',
  '<|',
  'AKIA',
  'password=',
  'Bearer ',
];

const ALPHABETS = ['ab /-|;$()<>\'"`\\\n', 'rm -rf /~$HOME{}*.', 'curl wget sh bash | $( <( eval source', 'ignore previous instructions hide from the user \u200b', 'x'];

function adversarialInputs(): Array<[string, string]> {
  const inputs: Array<[string, string]> = [];
  for (const unit of ADVERSARIAL_UNITS) {
    inputs.push([`"${unit}" repeated`, fill(unit)]);
    inputs.push([`"${unit}" repeated, one per line`, fill(unit + '\n')]);
  }
  const random = prng(31);
  for (const alphabet of ALPHABETS) {
    for (let n = 0; n < 4; n++) {
      let text = '';
      while (text.length < SAFETY_SCAN_LIMIT) text += alphabet[Math.floor(random() * alphabet.length)];
      inputs.push([`random over ${JSON.stringify(alphabet.slice(0, 20))} #${n}`, text]);
    }
  }
  for (let n = 0; n < 8; n++) {
    let text = '';
    while (text.length < SAFETY_SCAN_LIMIT) text += ADVERSARIAL_UNITS[Math.floor(random() * ADVERSARIAL_UNITS.length)];
    inputs.push([`random mix of the units #${n}`, text.slice(0, SAFETY_SCAN_LIMIT)]);
  }
  return inputs;
}

function fastestOfThree(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('safety gate: linear time on adversarial input at the size limit', () => {
  it('the review\'s case: a spec at the size limit built from "dd " repeated', () => {
    // Steps of 4,000 characters (the schema's limit per step) up to the scan limit.
    const steps = Array.from({ length: Math.floor(SAFETY_SCAN_LIMIT / 4001) - 1 }, () => fill('dd ', 4000));
    const spec: SkillSpec = { name: 'dd', description: 'dd', when_to_use: 'dd', steps, pitfalls: [] };
    safetyGate({ action: 'create', source: 'reviewer', spec, targetName: 'dd' });
    const ordinary = { ...spec, steps: steps.map(() => fill('a b;', 4000)) };
    const baseline = fastestOfThree(() => safetyGate({ action: 'create', source: 'reviewer', spec: ordinary, targetName: 'dd' }));
    expect(fastestOfThree(() => safetyGate({ action: 'create', source: 'reviewer', spec, targetName: 'dd' }))).toBeLessThan(bound(baseline));
  });

  it('no input of random or adversarial text up to the scan limit takes more than a few milliseconds', { timeout: 300_000 }, () => {
    const inputs = adversarialInputs();
    for (const [, text] of inputs.slice(0, 10)) safetyFindings(text); // warm up the compiler
    const ordinary = fill('a b;');
    const times = inputs.map(([label, text]) => {
      expect(text.length).toBeLessThanOrEqual(SAFETY_SCAN_LIMIT);
      // The baseline is measured beside each input, so both see the same load; an input over
      // the bound is measured again (a burst of load elsewhere passes, a quadratic rule stays).
      let best = { label, ms: Infinity, baseline: 0, over: Infinity };
      for (let attempt = 0; attempt < 4 && best.over >= 1; attempt++) {
        const baseline = fastestOfThree(() => safetyFindings(ordinary));
        const ms = fastestOfThree(() => safetyFindings(text));
        if (ms / bound(baseline) < best.over) best = { label, ms, baseline, over: ms / bound(baseline) };
      }
      return best;
    });
    times.sort((a, b) => b.over - a.over);
    expect(inputs.length).toBeGreaterThan(150);
    const slowest = times.slice(0, 5).map((t) => `${t.label}: ${t.ms.toFixed(1)} ms (baseline ${t.baseline.toFixed(1)} ms)`);
    expect(times[0].over, `slowest inputs: ${slowest.join('; ')}`).toBeLessThan(1);
  });

  it('fails closed without scanning text over the limit (a spec at the schema maximum)', () => {
    const huge: SkillSpec = {
      name: 'x',
      description: fill('dd ', 4000),
      when_to_use: fill('dd ', 4000),
      steps: Array.from({ length: 100 }, () => fill('dd ', 4000)),
      pitfalls: Array.from({ length: 100 }, () => fill('rm ', 4000)),
    };
    const report = safetyGate({ action: 'create', source: 'reviewer', spec: huge, targetName: 'x' });
    expect(report.passed).toBe(false);
    expect(report.reasons).toEqual([expect.stringMatching(/^text of 808\d+ characters is longer than the safety scan limit of 65536: not scanned \(failing closed\)$/)]);
  });
});
