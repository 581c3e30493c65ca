import { describe, expect, it } from 'vitest';
import { bar, createProgress, experimentProgressLine, learningJobProgressLine, whilePolling } from '../../cli/progress';
import type { ExperimentProgress } from '../../core/gepa/experiment-types';

const capture = (isTTY: boolean) => {
  const writes: string[] = [];
  return { stream: { isTTY, columns: 60, write: (t: string) => writes.push(t) }, writes };
};

const PROGRESS: ExperimentProgress = {
  experimentId: 'exp-1',
  phase: 'search',
  iteration: 3,
  maxIterations: 10,
  metricCallsUsed: 60,
  maxMetricCalls: 100,
  candidateCount: 4,
  seedValidationMean: 0.5,
  bestValidationMean: 0.75,
  runs: 1,
  spend: { tokens: 1200, costUsd: 0.012, evaluator: { tokens: 1000, costUsd: 0.01 }, reflector: { tokens: 200, costUsd: 0.002 } },
  maxTokens: 10_000,
  maxCostUsd: 0.05,
};

describe('progress (cli/progress.ts)', () => {
  it('not a terminal: one plain line per change, no control characters', () => {
    const { stream, writes } = capture(false);
    const p = createProgress(stream);
    p.update('step one');
    p.update('step one');
    p.update('step two', 0.5);
    p.end();
    expect(writes).toEqual(['step one\n', 'step two\n']);
  });

  it('not a terminal with --json: nothing (stdout carries the answer, stderr stays for errors)', () => {
    const { stream, writes } = capture(false);
    const p = createProgress(stream, { quiet: true });
    p.update('step one');
    p.end();
    expect(writes).toEqual([]);
  });

  it('a terminal: one line rewritten in place with a spinner and a bar, cut to the width, cleared at the end', () => {
    const { stream, writes } = capture(true);
    const p = createProgress(stream, { quiet: true, intervalMs: 60_000 });
    p.update('reviewing', 0.5);
    p.update('x'.repeat(200));
    p.end();
    expect(writes[0]!.startsWith('\r\x1b[K')).toBe(true);
    expect(writes[0]!.slice(4)).toMatch(/^\S \[#{12}\.{12}\] reviewing$/);
    expect(writes[1]!.length).toBeLessThanOrEqual('\r\x1b[K'.length + 59);
    expect(writes[1]!.endsWith('…')).toBe(true);
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('bar', () => {
    expect(bar(0, 4)).toBe('[....]');
    expect(bar(0.5, 4)).toBe('[##..]');
    expect(bar(2, 4)).toBe('[####]');
  });

  it("an experiment's line: iterations, metric calls, tokens and cost against budget, best score; the bar follows the most spent budget", () => {
    const line = experimentProgressLine(PROGRESS);
    expect(line.text).toBe('experiment exp-1: search, iteration 3/10, metric calls 60/100, tokens 1200/10000, cost $0.0120/$0.05, best 0.750 (seed 0.500)');
    expect(line.fraction).toBe(0.6);
    expect(experimentProgressLine({ ...PROGRESS, spend: undefined, maxTokens: undefined, maxCostUsd: undefined, bestValidationMean: undefined }).text).toBe(
      'experiment exp-1: search, iteration 3/10, metric calls 60/100, best — (seed 0.500)',
    );
    expect(experimentProgressLine({ ...PROGRESS, phase: 'done' }).fraction).toBe(1);
  });

  it("a learning job's line names its step", () => {
    expect(learningJobProgressLine('job-1', undefined)).toBe('job job-1: waiting for a worker');
    expect(learningJobProgressLine('job-1', { step: 'reviewing' })).toBe('job job-1: reviewing — the reviewer model reads the session');
    expect(learningJobProgressLine('job-1', { step: 'publishing', revisionsDone: 1, revisions: 3 })).toBe('job job-1: publishing — recording and publishing revisions (1/3)');
  });

  it('whilePolling polls until the awaited promise settles, and passes its result or failure on', async () => {
    let polls = 0;
    let finish!: (v: string) => void;
    const waiting = new Promise<string>((r) => (finish = r));
    const result = whilePolling(waiting, async () => void (++polls === 3 && finish('done')), 1);
    await expect(result).resolves.toBe('done');
    expect(polls).toBe(3);
    await expect(whilePolling(Promise.reject(new Error('no')), async () => {}, 1)).rejects.toThrow('no');
  });
});
