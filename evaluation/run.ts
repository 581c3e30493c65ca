import type { Client } from '@temporalio/client';
import type OpenAI from 'openai';
import { scopeKey, type EvolutionConfig } from '../core';
import {
  ArmSetupSchema,
  buildReport,
  CaseResultSchema,
  evaluationKeys,
  renderReportHtml,
  type ArmSetup,
  type CaseResult,
  type EvaluationArm,
  type EvaluationPhase,
  type EvaluationReport,
} from '../core/evaluation';
import type { SkillStore } from '../storage';
import { putOnce } from '../storage/put-once';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { startExperiment, waitForExperiment } from '../client/optimization';
import { decideRevision } from '../client/approvals';
import { SkillLoadTool } from '../client/skill-load-tool';
import { SkillRepository, type LoadedSkill } from '../client/skill-repository';
import { runEpisode } from './agent-loop';
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

export interface EpisodeProgress {
  done: number;
  total: number;
  /** Already recorded by an earlier, interrupted run of the same id: not run again. */
  resumed: number;
  last?: CaseResult;
  message?: string;
}

interface Planned {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  testCase: FamilyCase;
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

export function plan(opts: Pick<EvaluationRunOptions, 'family' | 'arms' | 'phases' | 'seeds'>): Planned[] {
  const out: Planned[] = [];
  for (const phase of opts.phases) {
    const cases = phase === 'replay' ? replayCases(opts.family) : opts.family.data.cases;
    for (const arm of opts.arms) for (const seed of seedsOf(phase, opts.seeds)) for (const testCase of cases) out.push({ arm, phase, testCase, seed });
  }
  return out;
}

/** The scope the online arm learns into: the run's own, so nothing else's skills reach it. */
export const runScope = (runId: string, family: string) => ({ app: `eval-${runId}-${family}`.slice(0, 120), mode: 'app' as const });

/**
 * One evaluation run. Every graded episode is stored create-only under the run id, arm,
 * phase, case and seed before the next starts, so a run interrupted and started again with
 * the same id runs only what is missing; the arms' setups (learned skills and their cost)
 * are stored the same way.
 */
export async function runEvaluation(deps: EvaluationDeps, opts: EvaluationRunOptions, onProgress: (p: EpisodeProgress) => void = () => {}): Promise<EvaluationReport> {
  const { store, config } = deps;
  const objects = store.objects;
  const episodes = plan(opts);
  const setups = new Map<EvaluationArm, ArmSetup>();
  const tools = new Map<EvaluationArm, SkillLoadTool | undefined>();
  for (const arm of opts.arms) {
    const setup = await armSetup(deps, opts, arm, (message) => onProgress({ done: 0, total: episodes.length, resumed: 0, message }));
    setups.set(arm, setup);
    const specs = setup.skills.flatMap((k) => (k.spec ? [{ spec: k.spec, revisionId: k.revisionId }] : []));
    tools.set(arm, specs.length ? new SkillLoadTool(pinnedSkills(specs)) : undefined);
  }

  const results: CaseResult[] = [];
  let resumed = 0;
  for (const [i, e] of episodes.entries()) {
    const id = { runId: opts.runId, arm: e.arm, phase: e.phase, caseId: e.testCase.id, seed: e.seed };
    const key = evaluationKeys.caseResult(id);
    const stored = await objects.getJson(key, CaseResultSchema);
    if (stored) {
      results.push(stored.value);
      resumed++;
      onProgress({ done: i + 1, total: episodes.length, resumed, last: stored.value });
      continue;
    }
    const prompt = opts.family.task(e.testCase, e.seed).prompt;
    const episode = await runEpisode({ openai: deps.openai, model: opts.agentModel, family: opts.family, testCase: e.testCase, seed: e.seed, prompt, skills: tools.get(e.arm) });
    const grade = opts.family.grade(episode, e.testCase, e.seed);
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
    };
    results.push(await putOnce(objects, key, result, { schema: CaseResultSchema, same: () => true, conflict: () => `${key} holds another result` }));
    onProgress({ done: i + 1, total: episodes.length, resumed, last: result });
  }

  const report = buildReport({
    runId: opts.runId,
    family: opts.family.name,
    expectedEffect: opts.family.expectedEffect,
    model: { agent: opts.agentModel, baseURL: config.llm.baseURL },
    generatedAt: new Date().toISOString(),
    arms: opts.arms,
    phases: opts.phases,
    results,
    setups: [...setups.values()],
  });
  // The report is derived from the records: rewritten whole on every run of the id.
  await objects.put(evaluationKeys.reportJson(opts.runId), report);
  await objects.put(evaluationKeys.reportHtml(opts.runId), renderReportHtml(report));
  return report;
}

/** What an arm runs with, learned once per run (stored create-only; a restarted run reads it back). */
async function armSetup(deps: EvaluationDeps, opts: EvaluationRunOptions, arm: EvaluationArm, say: (m: string) => void): Promise<ArmSetup> {
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
