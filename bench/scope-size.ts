/**
 * What a learning job's CPU does with the size of its scope: ranking the skills for the
 * reviewer (mostRelevant) and reconciling + Spec-gating one create against every skill.
 * Measured at 200 and 2,000 skills, two ways in the same invocation, interleaved:
 *
 *   per job   from a plain list, deriving everything from the skills again (what each job
 *             paid before the derived data was kept per version of the scope index)
 *   kept      from what the worker keeps per index version (scopeSkillsOf: relevance
 *             index, frozen list whose derived names the reconciler and gate keep)
 *   new version  the index changed by one publication since the worker last prepared it
 *             (a busy scope): scopeSkillsOf derives the new version (reusing the words of
 *             unchanged skills), then the job runs as in `kept`
 *
 * Pure CPU in this process, no services. Env BENCH_ROUNDS (5), BENCH_REPS (40 per round).
 */
import { scopeSkillsOf } from '../activities/existing-skills';
import type { ScopeIndex } from '../storage';
import { mostRelevant, reconcileDecision, skillIdForName, specGate, type GateCandidate, type ReviewDecision } from '../core';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

const VOCABULARY = (
  'deploy kubernetes cluster rollback database migration python testing flaky retries cache invalidation logging metrics ' +
  'tracing alerting pagination api rate limit auth token refresh csv parsing json schema validation docker build release ' +
  'notes changelog weather forecast city report invoice payment refund email template calendar booking search index ' +
  'backup restore queue worker scheduler cron upload download image resize translate summary review'
).split(' ');

const phrase = (seed: number, n: number) => Array.from({ length: n }, (_, k) => VOCABULARY[(seed * 7 + k * 13 + ((seed * k) % 11)) % VOCABULARY.length]).join(' ');

function scopeIndexOf(skills: number): ScopeIndex {
  return {
    scopeKey: 'apps/bench',
    generation: 1,
    removed: [],
    skills: Array.from({ length: skills }, (_, i) => {
      const name = `${phrase(i, 3)} ${i}`;
      return { skillId: skillIdForName(name), name, description: `Use when ${phrase(i + 1, 16)}.`, revisionId: `r-${i}`, managed: true, seq: 1 };
    }),
  };
}

const SESSION = `User: the nightly python testing job is flaky, retries do not help, please add metrics. Assistant: ${phrase(3, 80)}`;
const CREATE = {
  name: 'nightly flaky test triage',
  description: 'Use when a nightly test job fails intermittently.',
  when_to_use: 'flaky tests',
  steps: ['collect', 'rerun'],
  pitfalls: [],
};
const DECISION: ReviewDecision = { skip_reason: '', creates: [CREATE], updates: [], deletions: [] };
const CANDIDATE: GateCandidate = { action: 'create', source: 'reviewer', spec: CREATE, targetName: CREATE.name };

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const reps = Number(process.env.BENCH_REPS ?? 40);
  const figures: BenchFigures = {};
  for (const skills of [200, 2_000]) {
    const index = scopeIndexOf(skills);
    const kept = scopeSkillsOf(index);
    const plain = kept.existing.map((s) => ({ ...s }));
    // One new index object per run of `newVersion`, each one publication on from the last.
    let versions: ScopeIndex[] = [];
    let v = 0;
    const freshVersions = () => {
      versions = Array.from({ length: reps + 3 }, (_, k) => ({
        ...index,
        generation: k + 2,
        skills: [...index.skills.slice(0, -1), { ...index.skills.at(-1)!, description: `${phrase(k, 16)} ${k}` }],
      }));
      v = 0;
    };
    const ways = {
      perJob: () => {
        mostRelevant(plain, SESSION);
        reconcileDecision(DECISION, plain);
        specGate(CANDIDATE, plain);
      },
      kept: () => {
        mostRelevant(kept.relevance, SESSION);
        reconcileDecision(DECISION, kept.existing);
        specGate(CANDIDATE, kept.existing);
      },
      newVersion: () => {
        const next = scopeSkillsOf(versions[v++]);
        mostRelevant(next.relevance, SESSION);
        reconcileDecision(DECISION, next.existing);
        specGate(CANDIDATE, next.existing);
      },
    };
    const ms: Record<keyof typeof ways, number[]> = { perJob: [], kept: [], newVersion: [] };
    for (let round = 0; round < rounds; round++) {
      for (const way of ['perJob', 'kept', 'newVersion'] as const) {
        freshVersions();
        for (let i = 0; i < 3; i++) ways[way]();
        const t0 = performance.now();
        for (let i = 0; i < reps; i++) ways[way]();
        ms[way].push((performance.now() - t0) / reps);
      }
    }
    const ratios = (way: 'kept' | 'newVersion') => ms[way].map((k, i) => k / ms.perJob[i]!);
    ctx.log(
      `${String(skills).padStart(5)} skills: a job's scope-size work per job ${median(ms.perJob).toFixed(2)} ms; kept ${median(ms.kept).toFixed(2)} ms, ratio ${spread(ratios('kept'))}; ` +
        `after a new version ${median(ms.newVersion).toFixed(2)} ms, ratio ${spread(ratios('newVersion'))}`,
    );
    figures[`skills${skills}`] = {
      perJobMs: median(ms.perJob),
      keptMs: median(ms.kept),
      newVersionMs: median(ms.newVersion),
      keptRatios: ratios('kept'),
      newVersionRatios: ratios('newVersion'),
    };
  }
  return figures;
}
