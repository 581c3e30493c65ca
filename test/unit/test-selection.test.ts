import { describe, expect, it } from 'vitest';
import { unitTestsOnly } from '../../scripts/test-selection';

describe('npm test: which runs need the local services', () => {
  it('unit test paths alone need none', () => {
    expect(unitTestsOnly(['test/unit'])).toBe(true);
    expect(unitTestsOnly(['test/unit/hash.test.ts', './test/unit/diff.test.ts'])).toBe(true);
    expect(unitTestsOnly(['test/unit', '-t', 'round trip'])).toBe(true);
    expect(unitTestsOnly(['--reporter', 'verbose', 'test/unit/'])).toBe(true);
  });

  it('the whole suite, or any path outside test/unit, needs them', () => {
    expect(unitTestsOnly([])).toBe(false);
    expect(unitTestsOnly(['--bail=1'])).toBe(false);
    expect(unitTestsOnly(['test/unit', 'test/integration/cli-learning.test.ts'])).toBe(false);
    expect(unitTestsOnly(['test/workflow'])).toBe(false);
    expect(unitTestsOnly(['test/unitx'])).toBe(false);
    expect(unitTestsOnly(['hash'])).toBe(false);
  });
});
