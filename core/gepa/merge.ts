/**
 * GEPA's merge ("system-aware merge"): two frontier candidates that descend from one
 * common ancestor and improved it in different components are combined, component by
 * component, into one candidate that keeps both improvements.
 *
 * Pair: two distinct frontier candidates, neither an ancestor of the other, with a
 * common ancestor whose Validation mean is not above either of theirs and for which
 * some component equals the ancestor's in one of them and differs in the other (a
 * "desirable" component). The ancestor is drawn weighted by its Validation mean.
 * Combination, per component: if one side still has the ancestor's value, take the
 * other side's; if both changed it differently, take the side with the higher Validation
 * mean (a draw on a tie); if both agree, take it.
 * Acceptance: the merged candidate is evaluated on a Validation subsample chosen across
 * the cases where each parent is stronger and where they tie (under the Validation seed,
 * so the parents' stored scores are comparable), and kept only if its total is strictly
 * higher than the better parent's on the same cases — the minibatch rule (GEPA accepts
 * ties; we keep the rule the reflective children obey). Then it is evaluated on the rest
 * of Validation and joins the pool.
 * Schedule (as GEPA): each accepted reflective child schedules one merge while fewer than
 * maxMerges were tried; a merge is tried at the start of the next iteration only, and
 * an iteration in which no pair qualifies is a reflective one.
 */
import type { SkillSpec } from '../schemas/skill';
import { optimizableSpecProblems } from '../schemas/gepa';
import { COMPONENT_ORDER, componentValue, specFingerprint } from './components';
import { scoreTotal } from './evaluations';
import { nextFloat, nextInt, type PrngState } from './prng';
import type { SkillComponent } from '../schemas/skill';

export interface MergeSchedule {
  /** Merges scheduled and not yet tried. */
  due: number;
  /** Merges tried (evaluated on a subsample), accepted or not. */
  tested: number;
  accepted: number;
  /** Whether the previous iteration admitted a reflective child (GEPA tries a merge only then). */
  lastIterationFoundNew: boolean;
  /** `first|second|ancestor` of every pair already tried, and fingerprints of merged specs tried. */
  tried: string[];
}

export function emptyMergeSchedule(): MergeSchedule {
  return { due: 0, tested: 0, accepted: 0, lastIterationFoundNew: false, tried: [] };
}

export interface MergeCandidate {
  id: string;
  spec: SkillSpec;
  fingerprint: string;
  parentId?: string;
  mergedFrom?: readonly string[];
  validationScores: readonly number[];
  validationMean: number;
}

export interface MergeProposal {
  /** The two frontier candidates, in pool order. */
  parentIds: [string, string];
  ancestorId: string;
  spec: SkillSpec;
  fingerprint: string;
  /** Which parent each component came from. */
  componentSources: Record<SkillComponent, string>;
  /** Validation positions of the subsample, ascending. */
  subsample: number[];
  /** Each parent's Validation score total on the subsample. */
  parentTotals: [number, number];
}

export function parentsOf(c: Pick<MergeCandidate, 'parentId' | 'mergedFrom'>): readonly string[] {
  if (c.mergedFrom && c.mergedFrom.length > 0) return c.mergedFrom;
  return c.parentId ? [c.parentId] : [];
}

/** Every ancestor of a candidate (parents, their parents, …). */
export function ancestorsOf(id: string, byId: ReadonlyMap<string, MergeCandidate>): Set<string> {
  const found = new Set<string>();
  const stack = [...parentsOf(byId.get(id) ?? {})];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (found.has(next)) continue;
    found.add(next);
    stack.push(...parentsOf(byId.get(next) ?? {}));
  }
  return found;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Components where one side kept the ancestor's value and the other changed it. */
export function desirableComponents(ancestor: SkillSpec, a: SkillSpec, b: SkillSpec): SkillComponent[] {
  return COMPONENT_ORDER.filter((c) => {
    const [va, vb, vanc] = [componentValue(a, c), componentValue(b, c), componentValue(ancestor, c)];
    return (same(vanc, va) || same(vanc, vb)) && !same(va, vb);
  });
}

/** The component-wise combination (see the top of this file); consumes one PRNG value per tie. */
export function combineComponents(
  ancestor: MergeCandidate,
  a: MergeCandidate,
  b: MergeCandidate,
  prng: PrngState,
): { spec: SkillSpec; componentSources: Record<SkillComponent, string>; prng: PrngState } {
  let state = prng;
  const spec: SkillSpec = { ...ancestor.spec, steps: [...ancestor.spec.steps], pitfalls: [...ancestor.spec.pitfalls] };
  const componentSources = {} as Record<SkillComponent, string>;
  for (const c of COMPONENT_ORDER) {
    const [va, vb, vanc] = [componentValue(a.spec, c), componentValue(b.spec, c), componentValue(ancestor.spec, c)];
    let from: MergeCandidate;
    if (same(va, vb)) from = a;
    else if (same(vanc, va)) from = b;
    else if (same(vanc, vb)) from = a;
    else if (a.validationMean !== b.validationMean) from = a.validationMean > b.validationMean ? a : b;
    else {
      const draw = nextFloat(state);
      state = draw.state;
      from = draw.value < 0.5 ? a : b;
    }
    (spec as Record<SkillComponent, unknown>)[c] = componentValue(from.spec, c);
    componentSources[c] = from.id;
  }
  return { spec, componentSources, prng: state };
}

/** `k` distinct draws from `items` (partial Fisher–Yates), in draw order. */
function drawDistinct<T>(items: readonly T[], k: number, prng: PrngState): { picked: T[]; prng: PrngState } {
  const pool = [...items];
  const take = Math.min(k, pool.length);
  let state = prng;
  for (let i = 0; i < take; i++) {
    const draw = nextInt(state, pool.length - i);
    state = draw.state;
    const j = i + draw.value;
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { picked: pool.slice(0, take), prng: state };
}

/**
 * GEPA's subsample for a merged candidate: up to ⌈k/3⌉ cases where the first parent is
 * stronger, as many where the second is, as many ties, then the rest from any unused
 * case; never more than the Validation split holds. Positions, ascending.
 */
export function mergeSubsample(scoresA: readonly number[], scoresB: readonly number[], size: number, prng: PrngState): { positions: number[]; prng: PrngState } {
  const n = scoresA.length;
  const k = Math.min(size, n);
  const positions = Array.from({ length: n }, (_, i) => i);
  const buckets = [positions.filter((i) => scoresA[i] > scoresB[i]), positions.filter((i) => scoresB[i] > scoresA[i]), positions.filter((i) => scoresA[i] === scoresB[i])];
  const perBucket = Math.max(1, Math.ceil(k / 3));
  let state = prng;
  const selected: number[] = [];
  for (const bucket of buckets) {
    if (selected.length >= k) break;
    const drawn = drawDistinct(bucket, Math.min(perBucket, k - selected.length), state);
    state = drawn.prng;
    selected.push(...drawn.picked);
  }
  if (selected.length < k) {
    const unused = positions.filter((i) => !selected.includes(i));
    const drawn = drawDistinct(unused, k - selected.length, state);
    state = drawn.prng;
    selected.push(...drawn.picked);
  }
  return { positions: selected.sort((x, y) => x - y), prng: state };
}

const MAX_PAIR_ATTEMPTS = 20;

/**
 * Looks for a merge among the frontier candidates. Returns the proposal (or undefined
 * when no pair qualifies within MAX_PAIR_ATTEMPTS draws), the advanced PRNG, and the
 * keys to add to `tried`. Deterministic for a given PRNG state.
 */
export function proposeMerge(input: { candidates: readonly MergeCandidate[]; frontierIds: readonly string[]; tried: readonly string[]; subsampleSize: number; prng: PrngState }): {
  proposal?: MergeProposal;
  prng: PrngState;
  tried: string[];
} {
  const byId = new Map(input.candidates.map((c) => [c.id, c]));
  const order = new Map(input.candidates.map((c, i) => [c.id, i]));
  const pool = new Set(input.candidates.map((c) => c.fingerprint));
  const tried = new Set(input.tried);
  const added: string[] = [];
  const markTried = (key: string) => {
    if (!tried.has(key)) added.push(key);
    tried.add(key);
  };
  const ids = input.frontierIds.filter((id) => byId.has(id));
  let state = input.prng;
  if (ids.length < 2 || input.candidates.length < 3) return { prng: state, tried: [] };
  for (let attempt = 0; attempt < MAX_PAIR_ATTEMPTS; attempt++) {
    const pair = drawDistinct(ids, 2, state);
    state = pair.prng;
    const [x, y] = pair.picked.sort((p, q) => order.get(p)! - order.get(q)!);
    const a = byId.get(x)!;
    const b = byId.get(y)!;
    const ancestorsA = ancestorsOf(a.id, byId);
    const ancestorsB = ancestorsOf(b.id, byId);
    if (ancestorsA.has(b.id) || ancestorsB.has(a.id)) continue;
    const common = [...ancestorsA]
      .filter((id) => ancestorsB.has(id))
      .sort((p, q) => order.get(p)! - order.get(q)!)
      .map((id) => byId.get(id)!)
      .filter((anc) => !tried.has(`${a.id}|${b.id}|${anc.id}`))
      .filter((anc) => anc.validationMean <= a.validationMean && anc.validationMean <= b.validationMean)
      .filter((anc) => desirableComponents(anc.spec, a.spec, b.spec).length > 0);
    if (common.length === 0) continue;
    const ancestor = weightedPick(common, state);
    state = ancestor.prng;
    const combined = combineComponents(ancestor.value, a, b, state);
    state = combined.prng;
    const fingerprint = specFingerprint(combined.spec);
    const triplet = `${a.id}|${b.id}|${ancestor.value.id}`;
    if (pool.has(fingerprint) || tried.has(`spec:${fingerprint}`) || optimizableSpecProblems(combined.spec).length > 0) {
      markTried(triplet);
      continue;
    }
    const subsample = mergeSubsample(a.validationScores, b.validationScores, input.subsampleSize, state);
    state = subsample.prng;
    const totalOn = (scores: readonly number[]) => scoreTotal(subsample.positions.map((i) => scores[i]));
    markTried(triplet);
    markTried(`spec:${fingerprint}`);
    return {
      proposal: {
        parentIds: [a.id, b.id],
        ancestorId: ancestor.value.id,
        spec: combined.spec,
        fingerprint,
        componentSources: combined.componentSources,
        subsample: subsample.positions,
        parentTotals: [totalOn(a.validationScores), totalOn(b.validationScores)],
      },
      prng: state,
      tried: added,
    };
  }
  return { prng: state, tried: added };
}

/** A draw weighted by Validation mean (uniform when every mean is 0). */
function weightedPick(items: readonly MergeCandidate[], prng: PrngState): { value: MergeCandidate; prng: PrngState } {
  const total = items.reduce((s, c) => s + c.validationMean, 0);
  const draw = nextFloat(prng);
  if (total <= 0) return { value: items[Math.floor(draw.value * items.length)], prng: draw.state };
  let left = draw.value * total;
  for (const item of items) {
    left -= item.validationMean;
    if (left < 0) return { value: item, prng: draw.state };
  }
  return { value: items[items.length - 1], prng: draw.state };
}

export interface MergeVerdict {
  accepted: boolean;
  reason: string;
  parentTotal: number;
  childTotal: number;
}

/** The minibatch rule for a merge: strictly above the better parent on the same subsample, same seed. */
export function judgeMerge(proposal: Pick<MergeProposal, 'parentTotals' | 'subsample' | 'parentIds'>, mergedScores: readonly number[]): MergeVerdict {
  if (mergedScores.length !== proposal.subsample.length) throw new Error(`expected ${proposal.subsample.length} subsample scores, got ${mergedScores.length}`);
  const childTotal = scoreTotal(mergedScores);
  const parentTotal = Math.max(...proposal.parentTotals);
  const better = proposal.parentTotals[0] >= proposal.parentTotals[1] ? proposal.parentIds[0] : proposal.parentIds[1];
  const where = `on ${proposal.subsample.length} validation cases`;
  return childTotal > parentTotal
    ? { accepted: true, reason: `accepted merge: total ${childTotal.toFixed(4)} > better parent ${better} ${parentTotal.toFixed(4)} ${where}`, parentTotal, childTotal }
    : {
        accepted: false,
        reason: `merge not better: total ${childTotal.toFixed(4)} does not exceed better parent ${better} ${parentTotal.toFixed(4)} ${where}`,
        parentTotal,
        childTotal,
      };
}

/** The merged candidate's full Validation scores from the subsample run and the run on the other cases. */
export function assembleValidationScores(size: number, subsample: readonly number[], subsampleScores: readonly number[], restScores: readonly number[]): number[] {
  const scores = new Array<number>(size);
  const inSubsample = new Set(subsample);
  subsample.forEach((pos, i) => (scores[pos] = subsampleScores[i]));
  let r = 0;
  for (let pos = 0; pos < size; pos++) if (!inSubsample.has(pos)) scores[pos] = restScores[r++];
  if (r !== restScores.length) throw new Error(`expected ${size - subsample.length} scores for the rest of validation, got ${restScores.length}`);
  return scores;
}
