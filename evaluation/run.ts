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
import { SkillLoadTool } from '../client/skill-load-tool';
import { SkillRepository } from '../client/skill-repository';
import { runEpisode } from './agent-loop';
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
    tools.set(arm, setup.scopeKey ? await skillTool(store, opts) : undefined);
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

async function skillTool(store: SkillStore, opts: EvaluationRunOptions): Promise<SkillLoadTool> {
  const scope = runScope(opts.runId, opts.family.name);
  const repository = new SkillRepository(store, scope);
  await repository.refresh();
  return new SkillLoadTool(repository);
}

/** What an arm runs with, learned once per run (stored create-only; a restarted run reads it back). */
async function armSetup(deps: EvaluationDeps, opts: EvaluationRunOptions, arm: EvaluationArm, say: (m: string) => void): Promise<ArmSetup> {
  const key = evaluationKeys.armSetup(opts.runId, arm);
  const stored = await deps.store.objects.getJson(key, ArmSetupSchema);
  if (stored) return stored.value;
  let setup: ArmSetup;
  if (arm === 'baseline') setup = { runId: opts.runId, arm, skills: [], cost: { modelCalls: 0, promptTokens: 0, completionTokens: 0 }, notes: ['no skills'] };
  else if (arm === 'online') setup = await learnOnline(deps, opts, say);
  else throw new Error('the optimized arm is not available yet: run --arms baseline,online (docs/evaluation.md, "Missing")');
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
  return { runId: opts.runId, arm: 'online', scopeKey: scopeKey(scope), skills, cost, notes };
}
