import {
  chargeBatch,
  deriveSeed,
  findCandidate,
  kFoldSelection,
  multiSeedWinner,
  prngFromSeed,
  sampleMinibatchIndices,
  scoreRows,
  selectFinalists,
  type SelectionReport,
} from '../../core';
import { mapLimit } from '../../core/concurrency';
import { failureMessage } from '../../core/failure-message';
import { recordIds } from '../../core/gepa/ids';
import { validationWinner, type ChosenWinner } from './finish';
import { asEvaluations, chargeOf, evaluateBatch, onVersion2, type SearchHolder } from './search';
import { isCancellation } from '@temporalio/workflow';

/** Finalists' extra Validation runs in flight at once (each fans out to the evaluator itself). */
const SELECTION_BATCHES_AT_ONCE = 4;

/**
 * The winner after search, by the request's selection method (docs/optimization.md,
 * "Selection"): the Validation mean (default), k-fold over Validation (no extra calls),
 * or multi-seed (the finalists re-run on Validation under extra seeds, from the
 * selection reserve). A failed multi-seed run falls back to the Validation winner and
 * says so.
 */
export async function chooseWinner(h: SearchHolder): Promise<{ chosen: ChosenWinner; report?: SelectionReport; error?: string }> {
  const { context } = h;
  const selection = context.options.selection;
  if (!onVersion2(context) || !selection || selection.method === 'validation') return { chosen: validationWinner(h.state) };
  const rows = scoreRows(h.state);
  const chosen = (id: string): ChosenWinner => ({ candidate: findCandidate(h.state, id)!, isSeed: id === rows[0].id });

  if (selection.method === 'k_fold') {
    const n = h.state.validationCaseIds.length;
    const order = sampleMinibatchIndices(n, n, prngFromSeed(deriveSeed(h.state.randomSeed, 'k-fold'))).indices;
    const r = kFoldSelection(rows, selection.folds, (positions) => order.map((i) => positions[i]));
    return { chosen: chosen(r.winner.id), report: { method: 'k_fold', winnerId: r.winner.id, folds: r.folds, crossValidatedMean: r.crossValidatedMean } };
  }

  const finalists = selectFinalists(rows, selection.finalists);
  const extraSeeds = Array.from({ length: selection.seeds - 1 }, (_, i) => deriveSeed(h.state.randomSeed, `validation-${i + 1}`));
  const runs = new Map<string, number[][]>(finalists.map((id) => [id, [[...findCandidate(h.state, id)!.validationScores]]]));
  const jobs = finalists.flatMap((id, f) => extraSeeds.map((seed, s) => ({ id, f, s: s + 1, seed })));
  try {
    const results = await mapLimit(jobs, SELECTION_BATCHES_AT_ONCE, (job) =>
      evaluateBatch(context, {
        recordId: recordIds.selection(job.f, job.s, context.segment),
        phase: 'selection',
        split: 'validation',
        caseIds: h.state.validationCaseIds,
        candidateId: job.id,
        spec: findCandidate(h.state, job.id)!.spec,
        seed: job.seed,
      }),
    );
    results.forEach((batch, i) => {
      h.state = chargeBatch(h.state, batch.caseIds.length, chargeOf(batch), 'selection');
      runs.get(jobs[i].id)!.push(asEvaluations(batch).map((e) => e.score));
    });
  } catch (e) {
    if (isCancellation(e)) throw e;
    return { chosen: validationWinner(h.state), error: `multi-seed selection failed, the validation winner was kept: ${failureMessage(e)}` };
  }
  const r = multiSeedWinner(rows, finalists, runs);
  const seeds = [h.state.validationSeed, ...extraSeeds];
  const report: SelectionReport = {
    method: 'multi_seed',
    winnerId: r.winner.id,
    finalists: r.means
      .map((m) => ({ candidateId: m.id, validationMean: findCandidate(h.state, m.id)!.validationMean, multiSeedMean: m.mean, seeds }))
      .sort((a, b) => b.multiSeedMean - a.multiSeedMean),
  };
  return { chosen: chosen(r.winner.id), report };
}
