import { describe, expect, it } from 'vitest';
import { buildReport, renderReportHtml, type CaseResult } from '../../core/evaluation';
import { checkEvaluationRunInput } from '../../core/workflow-inputs';
import { evaluationTaskQueues, type EvaluationRunProgress } from '../../core/workflow-api/evaluation';
import { evaluationRunWorkflowId } from '../../core/workflow-ids';
import { evaluationProgressLine } from '../../cli/commands/evaluate';
import { judge } from '../../infra/model-server/judge';
import { plan, planBlocks } from '../../evaluation/run';
import { familyNamed } from '../../evaluation/families';

const INPUT = { runId: 'run-1', family: 'flaky-report', arms: ['baseline', 'online'], phases: ['search'], seeds: 3, agentModel: 'm' };

describe('evaluation run workflow: input, ids, plan', () => {
  it('accepts a well-formed input and names every bad field', () => {
    expect(checkEvaluationRunInput(INPUT)).toEqual([]);
    expect(checkEvaluationRunInput({ ...INPUT, judgeModel: 'j', concurrency: 2 })).toEqual([]);
    expect(checkEvaluationRunInput({ ...INPUT, runId: 'Bad Id', arms: ['baseline', 'sideways'], phases: [], seeds: 0, concurrency: 99 })).toEqual([
      'runId: a run id is 1-63 lower-case letters, digits and dashes, starting with a letter or digit',
      'arms[1]: expected one of baseline, online, optimized, got a string',
      'phases: expected a non-empty array',
      'seeds: expected an integer >= 1 and <= 100, got 0',
      'concurrency: expected an integer >= 1 and <= 32, got 99',
    ]);
    expect(checkEvaluationRunInput(null)).toEqual(['input: expected an object, got null']);
  });

  it('the workflow id and task queues are functions of the run id (a restarted command finds its run)', () => {
    expect(evaluationRunWorkflowId('run-1')).toBe('evaluate/run-1');
    expect(evaluationTaskQueues('run-1')).toEqual({ workflows: 'evaluate-run-1', activities: 'evaluate-run-1-activities' });
  });

  it('plans phase by phase, arm by arm, with ids only; replay runs each recorded session once', () => {
    const family = familyNamed('flaky-report');
    const blocks = planBlocks({ family, arms: ['baseline', 'online'], phases: ['search', 'confirmation', 'replay'], seeds: 3 });
    expect(blocks.map((b) => `${b.phase}/${b.arm}`)).toEqual([
      'search/baseline',
      'search/online',
      'confirmation/baseline',
      'confirmation/online',
      'replay/baseline',
      'replay/online',
    ]);
    expect(blocks[0].seeds).toEqual([1, 2, 3]);
    expect(blocks[2].seeds).toEqual([4, 5, 6]);
    expect(blocks[4].seeds).toEqual([0]);
    expect(blocks[4].caseIds).toEqual(family.data.training.map((s) => `replay-${s.sessionId}`));
    expect(plan({ family, arms: ['baseline'], phases: ['search'], seeds: 2 })).toHaveLength(2 * family.data.cases.length);
  });
});

describe('evaluation progress line', () => {
  const progress: EvaluationRunProgress = {
    runId: 'run-1',
    family: 'flaky-report',
    stage: 'running',
    blocks: [
      { arm: 'baseline', phase: 'search', done: 10, total: 10, recordedBefore: 4, passed: 3 },
      { arm: 'online', phase: 'search', done: 2, total: 10, recordedBefore: 0, passed: 2 },
      { arm: 'baseline', phase: 'confirmation', done: 0, total: 10, recordedBefore: 0, passed: 0 },
    ],
  };

  it('says episodes done of all (and how many were recorded before), and each arm per phase', () => {
    const line = evaluationProgressLine(progress);
    expect(line.text).toBe('evaluation run-1: running, 12/30 episodes (4 recorded before, not repeated) — search: baseline 10/10, online 2/10; confirmation: baseline 0/10');
    expect(line.fraction).toBeCloseTo(0.4);
    expect(evaluationProgressLine({ ...progress, stage: 'setting up', message: 'online: learning', blocks: [] })).toEqual({
      text: 'evaluation run-1: setting up (online: learning)',
      fraction: 0,
    });
  });
});

describe('the judge', () => {
  const prompt = (answer: string) => `## Task\nFix it\n\n## Tool calls\n1. run_tests({}) → failed: test_login_timeout flaky\n\n## Final answer\n${answer}`;

  it('the stand-in scores deterministically: nothing for no answer, more for an answer grounded in the tool results', () => {
    expect(judge(prompt('(no answer)')).quality).toBe(0);
    const grounded = judge(prompt('The failure test_login_timeout is flaky: I reran it and it passed, so I marked it as flaky in the report.'));
    const vague = judge(prompt('Done.'));
    expect(grounded).toEqual(judge(prompt('The failure test_login_timeout is flaky: I reran it and it passed, so I marked it as flaky in the report.')));
    expect(grounded.quality).toBeGreaterThan(vague.quality);
    expect(grounded.reason).toMatch(/^stand-in judge: the answer uses 1 of 1 successful tool results/);
  });

  it('the report shows the judge separately from the grader, paired with the baseline, with its own cost', () => {
    const base = { runId: 'r', family: 'f', phase: 'search' as const, caseId: 'a', notes: [], promptTokens: 10, completionTokens: 1, modelCalls: 1, toolCalls: [], answer: '' };
    const judged = (arm: CaseResult['arm'], seed: number, quality: number): CaseResult => ({
      ...base,
      arm,
      seed,
      pass: true,
      quality: 1,
      skillsLoaded: [],
      judge: { model: 'j', quality, reason: 'r', promptTokens: 7, completionTokens: 3 },
    });
    const results = [1, 2, 3].flatMap((seed) => [judged('baseline', seed, 0.4), judged('online', seed, 0.4 + seed / 10)]);
    const report = buildReport({
      runId: 'r',
      family: 'f',
      expectedEffect: 'helps',
      model: { agent: 'a', baseURL: 'http://x', judge: 'j' },
      generatedAt: 't',
      arms: ['baseline', 'online'],
      phases: ['search'],
      results,
      setups: [],
    });
    const online = report.summaries.find((s) => s.arm === 'online')!;
    expect(online.quality.mean).toBe(1);
    expect(online.judgeQuality!.mean).toBeCloseTo(0.6);
    expect(online.vsBaseline!.judgeQuality!.mean).toBeCloseTo(0.2);
    expect(report.totals.find((t) => t.arm === 'online')!.judge).toEqual({ modelCalls: 3, promptTokens: 21, completionTokens: 9 });
    expect(report.totals.find((t) => t.arm === 'online')!.modelCalls).toBe(3);
    const page = renderReportHtml(report);
    expect(page).toContain('judge quality');
    expect(page).toContain('Judge model <code>j</code>');
  });
});
