import type { Client } from '@temporalio/client';
import type OpenAI from 'openai';
import { scopeKey, type EvolutionConfig } from '../core';
import {
  ArmSetupSchema,
  buildReport,
  CaseResultSchema,
  EvaluationRunRecordSchema,
  evaluationKeys,
  renderReportHtml,
  type ArmSetup,
  type CaseResult,
  type EvaluationArm,
  type EvaluationPhase,
  type EvaluationReport,
  type EvaluationRunRecord,
} from '../core/evaluation';
import type { EvaluationBlock } from '../core/workflow-api/evaluation';
import type { SkillStore } from '../storage';
import { putOnce } from '../storage/put-once';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { startExperiment, waitForExperiment } from '../client/optimization';
import { decideRevision } from '../client/approvals';
import { SkillLoadTool } from '../client/skill-load-tool';
import { SkillRepository, type LoadedSkill } from '../client/skill-repository';
import { runEpisode } from './agent-loop';
import { judgeEpisode } from './judge';
import { datasetCase, type EvaluatorUsage } from './evaluator';
import { pinnedSkills } from './pinned-skills';
import { sessionEvents, type Family, type FamilyCase } from './family';

export interface EvaluationRunOptions {
  runId: string;
  family: Family;
  arms: EvaluationArm[];
  phases: EvaluationPhase[];
  /** Seeds per phase: search uses 1..seeds, confirmation the fresh seeds after them. */
  seeds: number;
  agentModel: string;
  judgeModel?: string;
}

export interface EvaluationDeps {
  config: EvolutionConfig;
  store: SkillStore;
  /** A client whose default task queue has a worker for the learning workflows (the run's own, in the CLI). */
  temporal: Client;
  taskQueue: string;
  openai: OpenAI;
  /** For the optimized arm: the task queue where the family's evaluator runs (familyEvaluatorActivities), and what it spent. */
  optimizer?: { evaluatorTaskQueue: string; usage: EvaluatorUsage };
}

/** One test episode of a run: which arm, phase, case and seed (its record's key). */
export interface PlannedCase {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  caseId: string;
  seed: number;
}

/** Replay: the recorded sessions' inputs, as the family's task, once each (seed 0). */
export function replayCases(family: Family): FamilyCase[] {
  return family.data.training.map((s) => ({ id: `replay-${s.sessionId}`, inputs: s.inputs }));
}

export function seedsOf(phase: EvaluationPhase, seeds: number): number[] {
  if (phase === 'replay') return [0];
  const first = phase === 'search' ? 1 : seeds + 1;
  return Array.from({ length: seeds }, (_, i) => first + i);
}

const casesOf = (family: Family, phase: EvaluationPhase) => (phase === 'replay' ? replayCases(family) : family.data.cases);

/** The run's blocks (phase by phase, arm by arm): case ids and seeds only, what the workflow needs. */
export function planBlocks(opts: Pick<EvaluationRunOptions, 'family' | 'arms' | 'phases' | 'seeds'>): EvaluationBlock[] {
  return opts.phases.flatMap((phase) => opts.arms.map((arm) => ({ arm, phase, caseIds: casesOf(opts.family, phase).map((c) => c.id), seeds: seedsOf(phase, opts.seeds) })));
}

/** Every episode of a run, in the order the workflow runs them (seed by seed within a block). */
export function plan(opts: Pick<EvaluationRunOptions, 'family' | 'arms' | 'phases' | 'seeds'>): PlannedCase[] {
  return planBlocks(opts).flatMap((b) => b.seeds.flatMap((seed) => b.caseIds.map((caseId) => ({ arm: b.arm, phase: b.phase, caseId, seed }))));
}

/** The scope the online arm learns into: the run's own, so nothing else's skills reach it. */
export const runScope = (runId: string, family: string) => ({ app: `eval-${runId}-${family}`.slice(0, 120), mode: 'app' as const });

const settingsOf = (r: EvaluationRunRecord) => JSON.stringify([r.family, r.arms, r.phases, r.seeds, r.agentModel, r.judgeModel ?? null]);

/** The run's record, created once: a run id started again with other settings is refused, naming both. */
export async function recordRun(store: SkillStore, opts: EvaluationRunOptions, startedAt: string): Promise<EvaluationRunRecord> {
  const record: EvaluationRunRecord = {
    runId: opts.runId,
    family: opts.family.name,
    arms: opts.arms,
    phases: opts.phases,
    seeds: opts.seeds,
    agentModel: opts.agentModel,
    ...(opts.judgeModel ? { judgeModel: opts.judgeModel } : {}),
    scopeKey: scopeKey(runScope(opts.runId, opts.family.name)),
    startedAt,
  };
  const key = evaluationKeys.run(opts.runId);
  return putOnce(store.objects, key, record, {
    schema: EvaluationRunRecordSchema,
    same: (stored) => settingsOf(stored) === settingsOf(record),
    conflict: (stored) => `evaluation run ${opts.runId} was started with other settings (${settingsOf(stored)}, now ${settingsOf(record)}): choose another --run-id`,
  });
}

/** What an arm's episodes load: its setup's skills, frozen (none for the baseline). */
export function skillsOf(setup: ArmSetup): SkillLoadTool | undefined {
  const specs = setup.skills.flatMap((k) => (k.spec ? [{ spec: k.spec, revisionId: k.revisionId }] : []));
  return specs.length ? new SkillLoadTool(pinnedSkills(specs)) : undefined;
}

/**
 * One graded episode, stored create-only under the run id, arm, phase, case and seed: a
 * recorded one is read back and never run again (`recordedBefore`), so a retried activity,
 * a restarted worker or a re-started run costs one read per finished case.
 */
export async function runCase(
  deps: Pick<EvaluationDeps, 'store' | 'openai'>,
  opts: EvaluationRunOptions,
  setup: ArmSetup,
  e: PlannedCase,
  signal?: AbortSignal,
): Promise<{ result: CaseResult; recordedBefore: boolean }> {
  const objects = deps.store.objects;
  const id = { runId: opts.runId, ...e };
  const key = evaluationKeys.caseResult(id);
  const stored = await objects.getJson(key, CaseResultSchema);
  if (stored) return { result: stored.value, recordedBefore: true };
  const testCase = casesOf(opts.family, e.phase).find((c) => c.id === e.caseId);
  if (!testCase) throw new Error(`family ${opts.family.name} has no ${e.phase} case ${e.caseId}`);
  const prompt = opts.family.task(testCase, e.seed).prompt;
  const episode = await runEpisode({ openai: deps.openai, model: opts.agentModel, family: opts.family, testCase, seed: e.seed, prompt, skills: skillsOf(setup), signal });
  const grade = opts.family.grade(episode, testCase, e.seed);
  const judge = opts.judgeModel ? await judgeEpisode({ openai: deps.openai, model: opts.judgeModel, prompt, episode, signal }) : undefined;
  const result: CaseResult = {
    ...id,
    family: opts.family.name,
    pass: grade.pass,
    quality: grade.quality,
    notes: grade.notes,
    promptTokens: episode.promptTokens,
    completionTokens: episode.completionTokens,
    modelCalls: episode.turns,
    skillsLoaded: episode.skillLoaded,
    toolCalls: episode.calls.map((c) => c.name),
    answer: episode.answer.slice(0, 500),
    ...(judge ? { judge } : {}),
  };
  return { result: await putOnce(objects, key, result, { schema: CaseResultSchema, same: () => true, conflict: () => `${key} holds another result` }), recordedBefore: false };
}

const REPORT_READS = 16;

/** The report, derived from the run's records (every planned case must be recorded): rewritten whole each time. */
export async function writeReport(deps: Pick<EvaluationDeps, 'store' | 'config'>, opts: EvaluationRunOptions, generatedAt: string): Promise<EvaluationReport> {
  const objects = deps.store.objects;
  const episodes = plan(opts);
  const results: CaseResult[] = [];
  for (let i = 0; i < episodes.length; i += REPORT_READS) {
    const batch = await Promise.all(
      episodes.slice(i, i + REPORT_READS).map(async (e) => {
        const key = evaluationKeys.caseResult({ runId: opts.runId, ...e });
        const stored = await objects.getJson(key, CaseResultSchema);
        if (!stored) throw new Error(`evaluation run ${opts.runId}: ${key} is not recorded yet`);
        return stored.value;
      }),
    );
    results.push(...batch);
  }
  const setups: ArmSetup[] = [];
  for (const arm of opts.arms) {
    const stored = await objects.getJson(evaluationKeys.armSetup(opts.runId, arm), ArmSetupSchema);
    if (stored) setups.push(stored.value);
  }
  const report = buildReport({
    runId: opts.runId,
    family: opts.family.name,
    expectedEffect: opts.family.expectedEffect,
    model: { agent: opts.agentModel, baseURL: deps.config.llm.baseURL, ...(opts.judgeModel ? { judge: opts.judgeModel } : {}) },
    generatedAt,
    arms: opts.arms,
    phases: opts.phases,
    results,
    setups,
  });
  await objects.put(evaluationKeys.reportJson(opts.runId), report);
  await objects.put(evaluationKeys.reportHtml(opts.runId), renderReportHtml(report));
  return report;
}

/** What an arm runs with, learned once per run (stored create-only; a restarted run reads it back). */
export async function armSetup(deps: EvaluationDeps, opts: EvaluationRunOptions, arm: EvaluationArm, say: (m: string) => void): Promise<ArmSetup> {
  const key = evaluationKeys.armSetup(opts.runId, arm);
  const stored = await deps.store.objects.getJson(key, ArmSetupSchema);
  if (stored) return stored.value;
  let setup: ArmSetup;
  if (arm === 'baseline') setup = { runId: opts.runId, arm, skills: [], cost: { modelCalls: 0, promptTokens: 0, completionTokens: 0 }, notes: ['no skills'] };
  else if (arm === 'online') setup = await learnOnline(deps, opts, say);
  else setup = await optimize(deps, opts, await armSetup(deps, opts, 'online', say), say);
  return putOnce(deps.store.objects, key, setup, { schema: ArmSetupSchema, same: () => true, conflict: () => `${key} holds another setup` });
}

/** The online arm: the family's recorded sessions through the real learning workflow (the platform contract), into the run's own scope. */
async function learnOnline(deps: EvaluationDeps, opts: EvaluationRunOptions, say: (m: string) => void): Promise<ArmSetup> {
  const scope = runScope(opts.runId, opts.family.name);
  const cost = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
  const notes: string[] = [];
  const skills: ArmSetup['skills'] = [];
  const config = { ...deps.config, temporal: { ...deps.config.temporal, taskQueue: deps.taskQueue } };
  for (const session of opts.family.data.training) {
    say(`online: learning from recorded session ${session.sessionId}`);
    const started = await startLearningJob(
      { client: deps.temporal, store: deps.store, config },
      { app: scope.app, user: 'evaluation', scopeMode: 'app', sessionId: session.sessionId, events: sessionEvents(session), outcome: { status: 'success' } },
    );
    const outcome = await waitForLearningJob({ client: deps.temporal, store: deps.store }, started.jobWorkflowId);
    if (outcome.reviewerAnswer) {
      cost.modelCalls++;
      cost.promptTokens += outcome.reviewerAnswer.promptTokens ?? 0;
      cost.completionTokens += outcome.reviewerAnswer.completionTokens ?? 0;
    }
    notes.push(`${session.sessionId}: ${outcome.status} (${outcome.reason})`);
    for (const r of outcome.revisions) if (r.status === 'active') skills.push({ name: r.name, revisionId: r.revisionId });
  }
  const repository = new SkillRepository(deps.store, scope);
  for (const skill of skills) skill.spec = (await repository.load(skill.name)).spec;
  return { runId: opts.runId, arm: 'online', scopeKey: scopeKey(scope), skills, cost, notes };
}

const DATASET_SEEDS = { feedback: 1001, validation: 2001, holdout: 3001 };

/** At least MIN_CASES_PER_SPLIT_FOR_SUBMIT cases per split: the family's cases on seeds of their own (never a test seed). */
function optimizationDataset(opts: EvaluationRunOptions) {
  const split = (first: number) => {
    const cases = opts.family.data.cases;
    const seeds = Math.ceil(10 / cases.length);
    return Array.from({ length: seeds }, (_, i) => cases.map((c) => datasetCase(c.id, first + i))).flat();
  };
  return {
    id: `evaluate-${opts.runId}`,
    version: '1',
    feedback: split(DATASET_SEEDS.feedback),
    validation: split(DATASET_SEEDS.validation),
    holdout: split(DATASET_SEEDS.holdout),
  };
}

/**
 * The optimized arm: a GEPA experiment on the online arm's skill with the family's
 * evaluator, submitted as an update of that skill and approved, then frozen for the test
 * cases. Without a learned skill, or when the experiment finds nothing better, the arm runs
 * with the online skill (the notes say which).
 */
async function optimize(deps: EvaluationDeps, opts: EvaluationRunOptions, online: ArmSetup, say: (m: string) => void): Promise<ArmSetup> {
  // End to end: learning the skill it starts from, then optimizing it.
  const cost = { ...online.cost };
  const base = { runId: opts.runId, arm: 'optimized' as const, scopeKey: online.scopeKey };
  const learned = online.skills[0];
  if (!learned?.spec) return { ...base, skills: [], cost, notes: ['the online arm published no skill: nothing to optimize'] };
  if (!deps.optimizer) throw new Error('the optimized arm needs an evaluator worker (deps.optimizer)');
  const scope = runScope(opts.runId, opts.family.name);
  const repository = new SkillRepository(deps.store, scope);
  const current: LoadedSkill = await repository.load(learned.name);
  const experimentId = `evaluate-${opts.runId}`;
  const config = { ...deps.config, temporal: { ...deps.config.temporal, taskQueue: deps.taskQueue } };
  const usageBefore = { ...deps.optimizer.usage };
  say(`optimized: GEPA experiment ${experimentId} on ${learned.name}`);
  try {
    await startExperiment(
      { client: deps.temporal, store: deps.store, config },
      {
        experimentId,
        seed: current.spec,
        dataset: optimizationDataset(opts),
        scope,
        skillId: current.skillId,
        parentRevisionId: current.revisionId,
        submit: true,
        options: { maxIterations: 3, reflectionBatchSize: 3, evaluatorTaskQueue: deps.optimizer.evaluatorTaskQueue },
      },
    );
  } catch (e) {
    // A restarted run finds its experiment started already: it waits for the same one.
    if (!/already/i.test((e as Error).message)) throw e;
  }
  const report = await waitForExperiment(deps.temporal, experimentId);
  const usage = deps.optimizer.usage;
  // The evaluator's agent calls as counted here, plus one reflector call per iteration with the tokens GEPA's spend reports (not split).
  cost.modelCalls += usage.modelCalls - usageBefore.modelCalls + report.iterations;
  cost.promptTokens += usage.promptTokens - usageBefore.promptTokens + Math.round(report.spend?.reflector.tokens ?? 0);
  cost.completionTokens += usage.completionTokens - usageBefore.completionTokens;
  const notes = [`experiment ${experimentId}: ${report.status}, submission ${report.submission.status} (${report.submission.reason})`];
  const revisionId = report.submission.revisionId;
  if (!revisionId) return { ...base, skills: online.skills, cost, notes: [...notes, 'nothing better found: the online skill is kept'] };
  if (report.submission.revisionStatus === 'pending_approval') {
    await decideRevision({ client: deps.temporal, store: deps.store }, revisionId, {
      decision: 'approve',
      reviewer: 'evolution-evaluate',
      comment: `evaluation run ${opts.runId}`,
    });
    notes.push(`approved ${revisionId}`);
  }
  const revision = await deps.store.findRevision(revisionId);
  return { ...base, skills: [{ name: learned.name, revisionId, spec: revision?.spec ?? current.spec }], cost, notes };
}
