/**
 * The frontiers parent sampling (and merge) draws from, as in the GEPA library:
 *
 * - instance:  one front per Validation case: the candidates with the best score on it
 *              (what the search always did; it keeps specialists alive);
 * - objective: one front per objective: the candidates with the best Validation mean of
 *              that objective (`score`, `tokens`, `costUsd` or an objective the evaluator
 *              reports), so a cheap candidate survives beside an accurate one;
 * - hybrid:    both sets of fronts together.
 *
 * A front is a list of candidate ids (ties all lead). Dominated candidates are pruned
 * from the combined fronts with GEPA's rule (pareto.ts), and each surviving candidate's
 * sampling weight is the number of fronts it leads.
 */
import type { FrontierObjective, FrontierOptions } from '../schemas/gepa';
import { caseLeaders, dominatedCandidates, meanScore, type ScoreRow } from './pareto';
import { nextInt, type PrngState } from './prng';

export interface FrontierCandidate extends ScoreRow {
  /** Validation means of reported objectives (`tokens`, `costUsd`, evaluator objectives). */
  objectives?: Readonly<Record<string, number>>;
}

/** A candidate's value of an objective: `score` is its Validation mean; undefined when not reported. */
export function objectiveValue(candidate: FrontierCandidate, name: string): number | undefined {
  if (name === 'score') return meanScore(candidate.scores);
  const value = candidate.objectives?.[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Per objective, the candidates with its best value (higher or lower, per direction); objectives nobody reports have no front. */
export function objectiveLeaders(candidates: readonly FrontierCandidate[], objectives: readonly FrontierObjective[]): string[][] {
  const fronts: string[][] = [];
  for (const objective of objectives) {
    const valued = candidates.flatMap((c) => {
      const v = objectiveValue(c, objective.name);
      return v === undefined ? [] : [{ id: c.id, v: objective.direction === 'maximize' ? v : -v }];
    });
    if (valued.length === 0) continue;
    const best = Math.max(...valued.map((x) => x.v));
    fronts.push(valued.filter((x) => x.v === best).map((x) => x.id));
  }
  return fronts;
}

/** The fronts of a frontier type, before pruning. */
export function frontierLeaders(candidates: readonly FrontierCandidate[], frontier: Pick<FrontierOptions, 'type' | 'objectives'>): string[][] {
  switch (frontier.type) {
    case 'instance':
      return caseLeaders(candidates);
    case 'objective':
      return objectiveLeaders(candidates, frontier.objectives);
    case 'hybrid':
      return [...caseLeaders(candidates), ...objectiveLeaders(candidates, frontier.objectives)];
  }
}

/** The fronts with dominated candidates removed. */
export function prunedFronts(candidates: readonly FrontierCandidate[], frontier: Pick<FrontierOptions, 'type' | 'objectives'>): string[][] {
  const leaders = frontierLeaders(candidates, frontier);
  const removed = dominatedCandidates(candidates, leaders);
  return leaders.map((front) => front.filter((id) => !removed.has(id)));
}

/** The candidates on some pruned front, in pool order (GEPA's "dominators": merge draws its pairs from them). */
export function frontierCandidates(candidates: readonly FrontierCandidate[], frontier: Pick<FrontierOptions, 'type' | 'objectives'>): string[] {
  const on = new Set(prunedFronts(candidates, frontier).flat());
  return candidates.filter((c) => on.has(c.id)).map((c) => c.id);
}

/**
 * One frequency-weighted draw over the concatenated pruned fronts: a candidate's chance
 * is proportional to the number of fronts it leads. Consumes exactly one PRNG value.
 * With the instance frontier this is the search's original parent choice.
 */
export function sampleFrontierParent(
  candidates: readonly FrontierCandidate[],
  frontier: Pick<FrontierOptions, 'type' | 'objectives'>,
  prng: PrngState,
): { parentId: string; prng: PrngState } {
  if (candidates.length === 0) throw new Error('cannot select a parent from an empty candidate pool');
  const tickets = prunedFronts(candidates, frontier).flat();
  const draw = nextInt(prng, Math.max(tickets.length, 1));
  const parentId = tickets.length > 0 ? tickets[draw.value] : candidates[0].id;
  return { parentId, prng: draw.state };
}
