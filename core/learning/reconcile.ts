import type { ExistingSkill, ReviewDecision, SkillUpdate } from '../schemas/review';
import type { SkillSpec } from '../schemas/skill';
import { skillIdForName } from '../skills/scope-key';
import { normalizeSkillSpec } from '../skills/skill-markdown-render';
import { existingNames, normalizeSkillName, significantWords, type ExistingNames, type IndexedName } from './skill-names';

/**
 * Deterministic clean-up of a reviewer decision against the existing library
 * (the reference's reconciler), before any revision exists:
 *
 *   normalize  (after normalizeReviewDecision, whose drops are reported first)
 *              trim, drop nameless entries, one list per skill name
 *              (deletions > updates > creates), update.new_spec.name := update.name
 *   targets    updates/deletions must name an existing skill, and a managed one
 *   Rule 2     intra-batch dedup of creates (same normalized name, or same
 *              when_to_use + ordered steps)
 *   Rule 1     a create whose name equals an existing name, or extends it with a
 *              task-variant suffix (" - X", " (X)", " v2", ...), becomes an update
 *   Rule 3     a count-specific create ("3 Cities") becomes an update of an
 *              existing generic sibling ("Multi-City")
 *   Rule 4     a create sharing >= 50% (Jaccard, >= 2 words) of significant
 *              name words with an existing skill becomes an update of it
 *   isolation  anything that ends up targeting an unmanaged skill is dropped
 *
 * Unmanaged skills stay visible to every matching rule (so a near-duplicate of
 * a hand-written skill is recognised), but are never written. Every drop and
 * rewrite is reported with its reason. This is best-effort correction, not a
 * publish gate: the Spec gate re-checks the hard invariants.
 */

export type ReconcileEventKind =
  | 'drop_invalid'
  | 'drop_cross_list_conflict'
  | 'drop_intra_batch_duplicate'
  | 'rewrite_to_update'
  | 'rewrite_quantified_sibling_to_update'
  | 'rewrite_word_overlap_to_update'
  | 'drop_conflicts_with_existing_update'
  | 'drop_unknown_target'
  | 'drop_unmanaged_target';

export interface ReconcileEvent {
  kind: ReconcileEventKind;
  /** The list the entry came from. */
  list: 'creates' | 'updates' | 'deletions';
  /** The entry's name as the reviewer wrote it. */
  original: string;
  /** The existing skill it was mapped to, if any. */
  target?: string;
  reason: string;
}

export interface ReconcileResult {
  decision: ReviewDecision;
  events: ReconcileEvent[];
}

/** The existing skill a decision entry names: same normalized name, exact spelling first, then managed ones. */
export function findExistingSkill(name: string, existing: readonly ExistingSkill[]): ExistingSkill | undefined {
  const matches = (existingNames(existing).byNorm.get(normalizeSkillName(name)) ?? []).map((i) => existing[i]!);
  return matches.find((e) => e.name === name) ?? matches.find((e) => e.managed) ?? matches[0];
}

export function reconcileDecision(decision: ReviewDecision, existingSkills: readonly ExistingSkill[]): ReconcileResult {
  // Frozen, so every rule below shares the names derived from it (existingNames).
  const existing = Object.isFrozen(existingSkills) ? existingSkills : Object.freeze([...existingSkills]);
  // Entries the answer's normalisation dropped quietly (normalizeReviewDecision) are reported first.
  const events: ReconcileEvent[] = (decision.dropped ?? []).map((d) => ({ kind: 'drop_invalid', list: d.list, original: d.name, reason: d.reason }));
  const state: State = { creates: [], updates: [], deletions: [], events };
  normalize(decision, state);
  checkExplicitTargets(state, existing);
  dedupCreates(state);
  rewriteCreates(state, existing, supersetRule);
  rewriteCreates(state, existing, quantifiedSiblingRule);
  rewriteCreates(state, existing, wordOverlapRule);
  isolateWrites(state, existing);
  return {
    decision: { skip_reason: decision.skip_reason, creates: state.creates, updates: state.updates, deletions: state.deletions },
    events: state.events,
  };
}

interface State {
  creates: SkillSpec[];
  updates: SkillUpdate[];
  deletions: string[];
  events: ReconcileEvent[];
}

function normalize(decision: ReviewDecision, state: State): void {
  // One list per skill: deleting beats rewriting beats creating (the reference's priority).
  const claimed = new Map<string, string>();
  const claim = (list: ReconcileEvent['list'], name: string): boolean => {
    const key = normalizeSkillName(name);
    const owner = claimed.get(key);
    if (owner === undefined) {
      claimed.set(key, list);
      return true;
    }
    state.events.push(
      owner === list
        ? { kind: 'drop_intra_batch_duplicate', list, original: name, reason: `the same skill name appears earlier in ${list}` }
        : { kind: 'drop_cross_list_conflict', list, original: name, reason: `the same skill name is already in ${owner}, which takes priority` },
    );
    return false;
  };

  for (const raw of decision.deletions) {
    const name = raw.trim();
    if (name === '') state.events.push({ kind: 'drop_invalid', list: 'deletions', original: raw, reason: 'deletion names no skill' });
    else if (claim('deletions', name)) state.deletions.push(name);
  }
  for (const upd of decision.updates) {
    const name = upd.name.trim();
    if (name === '') {
      state.events.push({ kind: 'drop_invalid', list: 'updates', original: upd.name, reason: 'update names no skill' });
      continue;
    }
    // The target's identity is fixed by the update's name, whatever new_spec.name says.
    if (claim('updates', name)) state.updates.push({ name, reason: upd.reason.trim(), new_spec: { ...normalizeSkillSpec(upd.new_spec), name } });
  }
  for (const spec of decision.creates) {
    const normalized = normalizeSkillSpec(spec);
    if (normalized.name === '') {
      state.events.push({ kind: 'drop_invalid', list: 'creates', original: spec.name, reason: 'new skill has no name' });
      continue;
    }
    // Same-name creates are left to Rule 2, which reports them as intra-batch duplicates.
    const key = normalizeSkillName(normalized.name);
    const owner = claimed.get(key);
    if (owner === 'deletions' || owner === 'updates') {
      state.events.push({ kind: 'drop_cross_list_conflict', list: 'creates', original: spec.name, reason: `the same skill name is already in ${owner}, which takes priority` });
      continue;
    }
    state.creates.push(normalized);
  }
}

/** Explicit updates and deletions must name an existing, managed skill; their names take its exact spelling. */
function checkExplicitTargets(state: State, existing: readonly ExistingSkill[]): void {
  state.updates = state.updates.filter((upd) => {
    const target = resolveWritableTarget(state, existing, 'updates', upd.name);
    if (!target) return false;
    upd.name = target.name;
    upd.new_spec = { ...upd.new_spec, name: target.name };
    return true;
  });
  state.deletions = state.deletions.flatMap((name) => {
    const target = resolveWritableTarget(state, existing, 'deletions', name);
    return target ? [target.name] : [];
  });
}

function resolveWritableTarget(state: State, existing: readonly ExistingSkill[], list: 'updates' | 'deletions', name: string): ExistingSkill | undefined {
  const target = findExistingSkill(name, existing);
  const verb = list === 'updates' ? 'update' : 'delete';
  if (!target) {
    state.events.push({ kind: 'drop_unknown_target', list, original: name, reason: `cannot ${verb} "${name}": no existing skill has that name` });
    return undefined;
  }
  if (!target.managed) {
    state.events.push({ kind: 'drop_unmanaged_target', list, original: name, target: target.name, reason: `cannot ${verb} "${target.name}": it is outside the managed area` });
    return undefined;
  }
  return target;
}

// ---------------------------------------------------------------------------
// Rule 2: intra-batch dedup

/** when_to_use plus ordered steps, case- and edge-whitespace-insensitive; empty when either is missing. */
function shapeKey(spec: SkillSpec): string {
  const when = spec.when_to_use.trim().toLowerCase();
  if (when === '' || spec.steps.length === 0) return '';
  return `${when}\u001f${spec.steps.map((s) => s.trim().toLowerCase()).join('\u001e')}`;
}

function dedupCreates(state: State): void {
  const byName = new Map<string, string>();
  const byShape = new Map<string, string>();
  state.creates = state.creates.filter((spec) => {
    const name = normalizeSkillName(spec.name);
    const firstByName = byName.get(name);
    if (firstByName !== undefined) {
      state.events.push({ kind: 'drop_intra_batch_duplicate', list: 'creates', original: spec.name, reason: `normalized name matches earlier candidate "${firstByName}"` });
      return false;
    }
    const shape = shapeKey(spec);
    const firstByShape = shape === '' ? undefined : byShape.get(shape);
    if (firstByShape !== undefined) {
      state.events.push({
        kind: 'drop_intra_batch_duplicate',
        list: 'creates',
        original: spec.name,
        reason: `when_to_use+steps shape matches earlier candidate "${firstByShape}"`,
      });
      return false;
    }
    byName.set(name, spec.name);
    if (shape !== '') byShape.set(shape, spec.name);
    return true;
  });
}

// ---------------------------------------------------------------------------
// Rules 1, 3, 4: map a create onto an existing skill and turn it into an update

interface RuleMatch {
  target: string;
  /** Why the candidate maps to the target (goes into the update's reason and the event). */
  detail: string;
}

interface RewriteRule {
  kind: ReconcileEventKind;
  /** Prepares per-call indexes and returns the matcher. */
  matcher: (existing: readonly ExistingSkill[]) => (candidate: SkillSpec) => RuleMatch | undefined;
  duplicateReason: string;
  conflictReason: string;
}

function rewriteCreates(state: State, existing: readonly ExistingSkill[], rule: RewriteRule): void {
  if (state.creates.length === 0 || existing.length === 0) return;
  const match = rule.matcher(existing);
  // Updates already present, including those produced by earlier rules, are claims on their targets.
  const claimed = new Set(state.updates.map((u) => normalizeSkillName(u.name)));
  const deleting = new Set(state.deletions.map(normalizeSkillName));
  const rewritten = new Set<string>();
  state.creates = state.creates.filter((candidate) => {
    const m = match(candidate);
    if (!m) return true;
    const targetKey = normalizeSkillName(m.target);
    // Delete-then-create is the reviewer's explicit choice; leave it visible.
    if (deleting.has(targetKey)) return true;
    if (rewritten.has(targetKey)) {
      state.events.push({ kind: 'drop_intra_batch_duplicate', list: 'creates', original: candidate.name, target: m.target, reason: rule.duplicateReason });
      return false;
    }
    if (claimed.has(targetKey)) {
      state.events.push({ kind: 'drop_conflicts_with_existing_update', list: 'creates', original: candidate.name, target: m.target, reason: rule.conflictReason });
      return false;
    }
    state.updates.push({
      name: m.target,
      new_spec: { ...candidate, name: m.target },
      reason: `auto-merged by reconciler: candidate "${candidate.name}" ${m.detail} "${m.target}"`,
    });
    rewritten.add(targetKey);
    state.events.push({ kind: rule.kind, list: 'creates', original: candidate.name, target: m.target, reason: `candidate ${m.detail} "${m.target}"` });
    return false;
  });
}

const VARIANT_SEPARATORS = new Set(['-', ':', '(', '[', '/', '|', '_', '.']);

/** Whether what follows a shared prefix starts like a per-instance suffix: " - X", "(X)", " v2", ... */
export function isTaskVariantSeparator(rest: string): boolean {
  if (rest === '') return false;
  const isVersion = (s: string) => (s[0] === 'v' || s[0] === 'V') && s.length >= 2 && s[1] >= '0' && s[1] <= '9';
  if (VARIANT_SEPARATORS.has(rest[0])) return true;
  if (rest[0] === ' ' || rest[0] === '\t') {
    const trimmed = rest.replace(/^[ \t]+/, '');
    if (trimmed === '') return false;
    return VARIANT_SEPARATORS.has(trimmed[0]) || isVersion(trimmed);
  }
  return isVersion(rest);
}

const supersetRule: RewriteRule = {
  kind: 'rewrite_to_update',
  duplicateReason: 'another candidate already mapped to this parent during reconciliation',
  conflictReason: 'the reviewer already emitted an explicit update for this parent',
  matcher: (existing) => {
    const parents = existingNames(existing).byLengthDesc;
    return (candidate) => {
      const cand = normalizeSkillName(candidate.name);
      for (const p of parents) {
        if (p.norm.length > cand.length) continue;
        if (cand === p.norm) return { target: p.name, detail: 'has the same name as existing skill' };
        if (cand.startsWith(p.norm) && isTaskVariantSeparator(cand.slice(p.norm.length))) {
          return { target: p.name, detail: 'is a strict task-variant superset of existing skill' };
        }
      }
      return undefined;
    };
  },
};

// ---------------------------------------------------------------------------
// Rule 3: quantified siblings

const EXPLICIT_COUNT = /\b\d+\s+([a-z][a-z0-9_-]*)\b/g;
const MULTIPLICITY_MARKER = /\b(?:multi(?:-|\s+)|multiple\s+|several\s+|many\s+)([a-z][a-z0-9_-]*)\b/g;

function singularize(word: string): string {
  if (word.endsWith('ies') && word.length > 3) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && word.length > 1 && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function normalizeCountedUnit(unit: string): string {
  const trimmed = unit.replace(/^[ \t_-]+|[ \t_-]+$/g, '');
  if (trimmed === '') return '';
  return trimmed.replace(/_/g, '-').split('-').map(singularize).join('-');
}

/**
 * A normalized name with every quantity ("3 cities", "multi-city",
 * "multiple dishes") replaced by `<count:unit>`, so count-specific and generic
 * siblings share a family key.
 */
export function quantifiedFamilyKey(norm: string): string {
  if (norm === '') return '';
  return norm
    .replace(EXPLICIT_COUNT, (_m, unit: string) => `<count:${normalizeCountedUnit(unit)}>`)
    .replace(MULTIPLICITY_MARKER, (_m, unit: string) => `<count:${normalizeCountedUnit(unit)}>`);
}

/** quantifiedFamilyKey of an existing name, computed once per list of existing skills. */
function familyKeyOf(names: ExistingNames, p: IndexedName): string {
  let key = names.familyKeys.get(p.norm);
  if (key === undefined) names.familyKeys.set(p.norm, (key = quantifiedFamilyKey(p.norm)));
  return key;
}

const hasExplicitCount = (norm: string) => new RegExp(EXPLICIT_COUNT.source).test(norm);
const hasMultiplicityMarker = (norm: string) => new RegExp(MULTIPLICITY_MARKER.source).test(norm);

/**
 * The existing generic skill a count-specific name belongs to, if any. Only a
 * generic parent qualifies (multi-/multiple/several/many, or no count at all):
 * with only other count-specific siblings there is no canonical one to pick.
 */
export function findQuantifiedSiblingParent(candidateName: string, existing: readonly ExistingSkill[]): string | undefined {
  const cand = normalizeSkillName(candidateName);
  const family = quantifiedFamilyKey(cand);
  if (family === '' || family === cand) return undefined;
  const names = existingNames(existing);
  for (const p of names.byLengthDesc) {
    if (p.norm === cand || familyKeyOf(names, p) !== family) continue;
    if (hasMultiplicityMarker(p.norm) || !hasExplicitCount(p.norm)) return p.name;
  }
  return undefined;
}

/** Alphanumeric words of a name, with every explicit count ("3 cities") read as "multi". */
function genericSlug(norm: string): string[] {
  return norm
    .replace(new RegExp(EXPLICIT_COUNT.source, 'g'), 'multi ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The Spec gate's wider net (the reference's generic-parent heuristic): a count-specific
 * name ("Weather Monitor - 3 Cities") belongs to an existing name with a multiplicity
 * marker that starts with the same two words ("Weather Monitor - Multi-City with
 * Historical Data"), even when the rest differs and the family keys do not match.
 */
export function findGenericParent(candidateName: string, existing: readonly ExistingSkill[]): string | undefined {
  const cand = normalizeSkillName(candidateName);
  if (!hasExplicitCount(cand)) return undefined;
  const lead = genericSlug(cand).slice(0, 2);
  if (lead.length < 2) return undefined;
  for (const p of existingNames(existing).byLengthDesc) {
    if (p.norm === cand || !hasMultiplicityMarker(p.norm)) continue;
    const words = genericSlug(p.norm);
    if (words[0] === lead[0] && words[1] === lead[1]) return p.name;
  }
  return undefined;
}

const quantifiedSiblingRule: RewriteRule = {
  kind: 'rewrite_quantified_sibling_to_update',
  duplicateReason: 'another quantified sibling already mapped to this generic parent during reconciliation',
  conflictReason: 'the reviewer already emitted an explicit update for the generic sibling parent',
  matcher: (existing) => (candidate) => {
    const target = findQuantifiedSiblingParent(candidate.name, existing);
    return target === undefined ? undefined : { target, detail: 'is a count-specific sibling of existing generic skill' };
  },
};

// ---------------------------------------------------------------------------
// Rule 4: word overlap

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const shared = overlap(a, b);
  return shared / (a.size + b.size - shared);
}

const WORD_OVERLAP_THRESHOLD = 0.5;
const WORD_OVERLAP_MIN_SHARED = 2;

const wordOverlapRule: RewriteRule = {
  kind: 'rewrite_word_overlap_to_update',
  duplicateReason: 'another candidate already mapped to this target via word overlap',
  conflictReason: 'the reviewer already emitted an explicit update for this target',
  matcher: (existing) => {
    const indexed = existingNames(existing).withWords;
    return (candidate) => {
      const words = significantWords(candidate.name);
      if (words.size < 2 || indexed.length === 0) return undefined;
      const cand = normalizeSkillName(candidate.name);
      let best: (typeof indexed)[number] | undefined;
      let bestScore = 0;
      for (const e of indexed) {
        // Prefix pairs belong to Rules 1 and 3.
        if (cand.startsWith(e.norm) || e.norm.startsWith(cand)) continue;
        const score = jaccard(words, e.words);
        if (score > bestScore) {
          bestScore = score;
          best = e;
        }
      }
      if (!best || bestScore < WORD_OVERLAP_THRESHOLD || overlap(words, best.words) < WORD_OVERLAP_MIN_SHARED) return undefined;
      return { target: best.name, detail: `has ${(bestScore * 100).toFixed(0)}% significant-word overlap with existing skill` };
    };
  },
};

// ---------------------------------------------------------------------------
// Write isolation for what the rules produced

function isolateWrites(state: State, existing: readonly ExistingSkill[]): void {
  state.updates = state.updates.filter((upd) => {
    const target = findExistingSkill(upd.name, existing);
    if (target && !target.managed) {
      state.events.push({
        kind: 'drop_unmanaged_target',
        list: 'updates',
        original: upd.name,
        target: target.name,
        reason: `cannot update "${target.name}": it is outside the managed area`,
      });
      return false;
    }
    return true;
  });
  // A create whose id is an unmanaged skill's id would overwrite it.
  state.creates = state.creates.filter((spec) => {
    const id = skillIdForName(spec.name);
    const names = existingNames(existing);
    const target = existing.find((e, i) => !e.managed && (e.skillId === id || names.idAt(i) === id));
    if (!target) return true;
    state.events.push({
      kind: 'drop_unmanaged_target',
      list: 'creates',
      original: spec.name,
      target: target.name,
      reason: `cannot create "${spec.name}": it would replace "${target.name}", which is outside the managed area`,
    });
    return false;
  });
}
