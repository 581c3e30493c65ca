import { bestByMean, meanScore, type ScoreRow } from './pareto';

export interface Winner {
  id: string;
  validationMean: number;
  /** The seed is the first candidate of the pool and is never removed from it. */
  isSeed: boolean;
}

/**
 * Final selection after search: the highest Validation mean over the whole pool
 * (Pareto pruning only shapes parent sampling, never this). Ties go to the earliest
 * candidate, so a child must beat the seed to be selected.
 */
export function selectWinner(pool: readonly ScoreRow[]): Winner {
  const best = bestByMean(pool);
  return { id: best.id, validationMean: meanScore(best.scores), isSeed: best.id === pool[0].id };
}
