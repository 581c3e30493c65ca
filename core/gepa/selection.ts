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

/**
 * k-fold selection over the Validation split, with no extra metric calls. Validation
 * positions are dealt round-robin into k folds after a seeded shuffle; for each fold the
 * candidate with the best mean on the OTHER folds is "chosen" and scored on the held-out
 * fold. The winner is the candidate chosen by most folds (ties: higher Validation mean,
 * then earlier in the pool), and the mean held-out score of the per-fold choices
 * estimates how well choosing on Validation generalises (plain Validation selection
 * reports the chosen candidate's in-sample mean, which is optimistic).
 */
export function kFoldSelection(
  pool: readonly ScoreRow[],
  folds: number,
  shuffle: (positions: number[]) => number[],
): { winner: Winner; folds: { fold: number; caseCount: number; chosenId: string; heldOutMean: number }[]; crossValidatedMean: number } {
  if (pool.length === 0) throw new Error('cannot choose from an empty candidate pool');
  const n = pool[0].scores.length;
  if (folds < 2 || folds > n) throw new Error(`k-fold selection needs 2 ≤ folds ≤ ${n} validation cases, got ${folds}`);
  const order = shuffle(Array.from({ length: n }, (_, i) => i));
  const foldOf = new Array<number>(n);
  order.forEach((pos, i) => (foldOf[pos] = i % folds));
  const meanWhere = (row: ScoreRow, keep: (pos: number) => boolean) => meanScore(row.scores.filter((_, pos) => keep(pos)));
  const votes = new Map<string, number>();
  const results = Array.from({ length: folds }, (_, fold) => {
    const training = pool.map((row) => ({ id: row.id, scores: row.scores.filter((_, pos) => foldOf[pos] !== fold) }));
    const chosen = pool.find((row) => row.id === bestByMean(training).id)!;
    votes.set(chosen.id, (votes.get(chosen.id) ?? 0) + 1);
    return { fold, caseCount: foldOf.filter((f) => f === fold).length, chosenId: chosen.id, heldOutMean: meanWhere(chosen, (pos) => foldOf[pos] === fold) };
  });
  let best = pool[0];
  for (const row of pool.slice(1)) {
    const [v, bv] = [votes.get(row.id) ?? 0, votes.get(best.id) ?? 0];
    if (v > bv || (v === bv && meanScore(row.scores) > meanScore(best.scores))) best = row;
  }
  return {
    winner: { id: best.id, validationMean: meanScore(best.scores), isSeed: best.id === pool[0].id },
    folds: results,
    crossValidatedMean: meanScore(results.map((r) => r.heldOutMean)),
  };
}

/** multi_seed: the finalists, the `count` best Validation means (ties: earlier), in pool order. */
export function selectFinalists(pool: readonly ScoreRow[], count: number): string[] {
  const ranked = pool.map((row, index) => ({ id: row.id, index, mean: meanScore(row.scores) })).sort((a, b) => b.mean - a.mean || a.index - b.index);
  const chosen = new Set(ranked.slice(0, count).map((r) => r.id));
  return pool.filter((row) => chosen.has(row.id)).map((row) => row.id);
}

/**
 * multi_seed: the finalist with the best mean over all its Validation runs (the
 * search's own seed and the extra ones, every run on every Validation case); ties go to
 * the earlier candidate in the pool, so the seed wins a tie. `runs` maps a finalist id
 * to its score lists, one per seed.
 */
export function multiSeedWinner(
  pool: readonly ScoreRow[],
  finalists: readonly string[],
  runs: ReadonlyMap<string, readonly (readonly number[])[]>,
): { winner: Winner; means: { id: string; mean: number }[] } {
  if (finalists.length === 0) throw new Error('multi-seed selection needs at least one finalist');
  const means = finalists.map((id) => {
    const lists = runs.get(id);
    if (!lists || lists.length === 0) throw new Error(`no validation runs for finalist ${id}`);
    return { id, mean: meanScore(lists.flat()) };
  });
  const order = new Map(pool.map((row, i) => [row.id, i]));
  const best = [...means].sort((a, b) => b.mean - a.mean || order.get(a.id)! - order.get(b.id)!)[0];
  const row = pool.find((r) => r.id === best.id)!;
  return { winner: { id: best.id, validationMean: meanScore(row.scores), isSeed: best.id === pool[0].id }, means };
}
