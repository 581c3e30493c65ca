import type { ExistingSkill } from '../schemas/review';
import { utf8ByteLength } from '../skills/bounding';
import { skillIdForName } from '../skills/scope-key';

/** Lowercase, trimmed, whitespace runs collapsed; other punctuation kept (the superset rule reads it). */
export function normalizeSkillName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[ \t\n\r]+/g, ' ');
}

const STOP_WORDS = new Set(
  (
    'the and for with from that this are was were been being have has had does did will would could should may might shall ' +
    'can not but yet also then than when where how what which who whom its each every all any few more most other some such ' +
    'into over under between through about using multi multiple'
  ).split(' '),
);

/** Lowercased name words of 3+ bytes that are not stop words (`-`, `_`, `.` separate words). */
export function significantWords(name: string): Set<string> {
  return new Set(
    name
      .toLowerCase()
      .replace(/[-_.]/g, ' ')
      .split(/\s+/)
      .filter((w) => w !== '' && utf8ByteLength(w) >= 3 && !STOP_WORDS.has(w)),
  );
}

export interface IndexedName {
  norm: string;
  name: string;
}

/**
 * What the reconciler and the Spec gate derive from the names of a scope's skills, each
 * part computed on first use. Every rule used to recompute it for each candidate, which
 * with 2,000 skills cost several ms per job.
 */
export interface ExistingNames {
  /** Positions in the list by normalized name, in list order (empty names left out). */
  readonly byNorm: ReadonlyMap<string, readonly number[]>;
  /** Names by descending normalized length (stable), so the longest parent wins. */
  readonly byLengthDesc: readonly IndexedName[];
  /** Names with at least two significant words (Rule 4). */
  readonly withWords: readonly (IndexedName & { words: Set<string> })[];
  /** skillIdForName of the name at a position. */
  idAt(position: number): string;
  /** quantifiedFamilyKey by normalized name, filled as Rule 3 asks. */
  readonly familyKeys: Map<string, string>;
}

class Names implements ExistingNames {
  readonly familyKeys = new Map<string, string>();
  private norms?: string[];
  private norm?: Map<string, number[]>;
  private byLength?: IndexedName[];
  private words?: (IndexedName & { words: Set<string> })[];
  /** Per name, what is costly to derive (ids, significant words): handed on to the next version. */
  readonly idByName = new Map<string, string>();
  readonly wordsByName = new Map<string, Set<string>>();

  constructor(
    private readonly existing: readonly ExistingSkill[],
    previous?: Names,
  ) {
    // Only the entries of names still in the list: no version holds on to older ones.
    if (previous) {
      for (const { name } of existing) {
        const id = previous.idByName.get(name);
        if (id !== undefined) this.idByName.set(name, id);
        const words = previous.wordsByName.get(name);
        if (words) this.wordsByName.set(name, words);
      }
    }
  }

  private normalized(): string[] {
    return (this.norms ??= this.existing.map((e) => normalizeSkillName(e.name)));
  }

  get byNorm(): ReadonlyMap<string, readonly number[]> {
    if (!this.norm) {
      this.norm = new Map();
      this.normalized().forEach((norm, i) => {
        if (norm === '') return;
        const positions = this.norm!.get(norm);
        if (positions) positions.push(i);
        else this.norm!.set(norm, [i]);
      });
    }
    return this.norm;
  }

  get byLengthDesc(): readonly IndexedName[] {
    return (this.byLength ??= this.normalized()
      .map((norm, i) => ({ norm, name: this.existing[i]!.name, i }))
      .filter((e) => e.norm !== '')
      .sort((a, b) => b.norm.length - a.norm.length || a.i - b.i)
      .map(({ norm, name }) => ({ norm, name })));
  }

  get withWords(): readonly (IndexedName & { words: Set<string> })[] {
    return (this.words ??= this.existing.map((e, i) => ({ name: e.name, norm: this.normalized()[i]!, words: this.wordsOf(e.name) })).filter((e) => e.words.size >= 2));
  }

  private wordsOf(name: string): Set<string> {
    let words = this.wordsByName.get(name);
    if (!words) this.wordsByName.set(name, (words = significantWords(name)));
    return words;
  }

  idAt(position: number): string {
    const name = this.existing[position]!.name;
    let id = this.idByName.get(name);
    if (id === undefined) this.idByName.set(name, (id = skillIdForName(name)));
    return id;
  }
}

const kept = new WeakMap<readonly ExistingSkill[], Names>();

/**
 * The derived names of `existing`. A frozen list (and the caller must not change its
 * entries either) keeps them for its lifetime, so a scope's jobs that plan against the
 * same index share the work; any other list gets them afresh. `previous`: the frozen list
 * of the scope's previous version, whose per-name work the new one reuses (only on the
 * first call for `existing`).
 */
export function existingNames(existing: readonly ExistingSkill[], previous?: readonly ExistingSkill[]): ExistingNames {
  if (!Object.isFrozen(existing)) return new Names(existing);
  let names = kept.get(existing);
  if (!names) kept.set(existing, (names = new Names(existing, previous && kept.get(previous))));
  return names;
}
