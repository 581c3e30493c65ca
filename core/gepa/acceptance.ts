import type { IterationOutcome } from '../schemas/gepa';
import type { SkillComponent, SkillSpec } from '../schemas/skill';
import { applyComponent, specFingerprint } from './components';
import { scoreTotal } from './evaluations';
import { parseReflection } from './reflection-prompt';

/** Scores of one candidate on a Feedback minibatch, in `caseIds` order, under `seed`. */
export interface MinibatchRun {
  caseIds: readonly string[];
  seed: number;
  scores: readonly number[];
}

export interface MinibatchVerdict {
  accepted: boolean;
  outcome: Extract<IterationOutcome, 'accepted' | 'not_better'>;
  reason: string;
  parentTotal: number;
  childTotal: number;
}

function formatTotal(n: number): string {
  return n.toFixed(4);
}

/**
 * GEPA's acceptance test: the child is kept only if its minibatch total is
 * STRICTLY higher than the parent's on the same cases under the same paired seed.
 * A mismatch of cases or seed is a bug in the caller, so it throws.
 */
export function judgeMinibatch(parent: MinibatchRun, child: MinibatchRun): MinibatchVerdict {
  const sameCases = parent.caseIds.length === child.caseIds.length && parent.caseIds.every((id, i) => child.caseIds[i] === id);
  if (!sameCases) throw new Error('paired minibatch comparison needs the same cases in the same order for parent and child');
  if (parent.seed !== child.seed) throw new Error(`paired minibatch comparison needs one seed, got ${parent.seed} and ${child.seed}`);
  for (const run of [parent, child]) {
    if (run.scores.length !== run.caseIds.length) throw new Error(`expected ${run.caseIds.length} minibatch scores, got ${run.scores.length}`);
  }
  const parentTotal = scoreTotal(parent.scores);
  const childTotal = scoreTotal(child.scores);
  const where = `on ${parent.caseIds.length} feedback cases (seed ${parent.seed})`;
  if (childTotal > parentTotal) {
    return {
      accepted: true,
      outcome: 'accepted',
      reason: `accepted: child minibatch total ${formatTotal(childTotal)} > parent ${formatTotal(parentTotal)} ${where}`,
      parentTotal,
      childTotal,
    };
  }
  return {
    accepted: false,
    outcome: 'not_better',
    reason: `not better: child minibatch total ${formatTotal(childTotal)} does not exceed parent ${formatTotal(parentTotal)} ${where}`,
    parentTotal,
    childTotal,
  };
}

export type ProposalScreening =
  | { ok: true; spec: SkillSpec; fingerprint: string; rationale: string }
  | { ok: false; outcome: Extract<IterationOutcome, 'invalid_reflection' | 'no_change' | 'duplicate_candidate'>; reason: string };

/**
 * Turns the reflector's structured answer into a child spec, or says why not:
 * invalid output (unparseable, other component, invalid spec), no change to the
 * component, or the same content as a candidate already in the pool.
 */
export function screenProposal(input: {
  parentSpec: SkillSpec;
  component: SkillComponent;
  answer: unknown;
  /** Fingerprint → candidate id of every candidate in the pool. */
  poolFingerprints: ReadonlyMap<string, string>;
}): ProposalScreening {
  const parsed = parseReflection(input.answer, input.component);
  if (!parsed.ok) return { ok: false, outcome: 'invalid_reflection', reason: `invalid reflector output: ${parsed.reason}` };
  const applied = applyComponent(input.parentSpec, input.component, parsed.newValue);
  if (!applied.ok) return { ok: false, outcome: 'invalid_reflection', reason: `invalid reflector output: ${applied.reason}` };
  const fingerprint = specFingerprint(applied.spec);
  if (fingerprint === specFingerprint(input.parentSpec)) {
    return { ok: false, outcome: 'no_change', reason: `no change: the reflector returned the current ${input.component}` };
  }
  const existing = input.poolFingerprints.get(fingerprint);
  if (existing !== undefined) {
    return { ok: false, outcome: 'duplicate_candidate', reason: `duplicate candidate: same content as candidate ${existing}` };
  }
  return { ok: true, spec: applied.spec, fingerprint, rationale: parsed.rationale };
}
