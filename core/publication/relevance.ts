/**
 * The existing skills most relevant to a session, for the reviewer's prompt: score =
 * distinct words (3+ letters, not stop words) shared by the skill's name + description
 * and the session text; ties by name. Bounded, so the prompt does not grow with the
 * scope. The reconciler does not use this: it checks names against the whole scope.
 */
export const DEFAULT_RELEVANT_SKILLS = 20;

const STOP_WORDS = new Set(
  'the and for with that this from are was were you your have has had not but can will use uses used when then than into onto over under about what which who how why all any each its our their them they there here also only just more most some such very'.split(
    ' ',
  ),
);

export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w.length >= 3 && !STOP_WORDS.has(w)) out.add(w);
  return out;
}

/**
 * A scope's skills prepared for ranking: which skills each word appears in, and the skills
 * in name order. Built once per version of the scope's index, it makes a ranking cost the
 * session's words and their matches instead of splitting every skill's text again (with
 * 2,000 skills that was ~15 ms per job).
 */
export interface RelevanceIndex<T> {
  readonly skills: readonly T[];
  /** Word → positions in `skills` of the skills whose name + description contain it. */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  /** Positions in `skills`, by name (code-unit order), equal names in list order. */
  readonly byName: readonly number[];
  /** Each skill's words by its name + description, for the next version's index to reuse. */
  readonly wordsByText: ReadonlyMap<string, Set<string>>;
}

/**
 * `previous`: the index of the scope's previous version; the words of skills whose name
 * and description did not change are taken from it (splitting them is most of the cost).
 */
export function relevanceIndex<T extends { name: string; description: string }>(skills: readonly T[], previous?: RelevanceIndex<unknown>): RelevanceIndex<T> {
  const postings = new Map<string, number[]>();
  const wordsByText = new Map<string, Set<string>>();
  skills.forEach((s, i) => {
    const text = `${s.name.replaceAll('-', ' ')} ${s.description}`;
    const skillWords = previous?.wordsByText.get(text) ?? wordsByText.get(text) ?? words(text);
    wordsByText.set(text, skillWords);
    for (const w of skillWords) {
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
  });
  const byName = skills.map((_, i) => i).sort((a, b) => compareNames(skills[a]!.name, skills[b]!.name) || a - b);
  return { skills, postings, byName, wordsByText };
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The `limit` skills sharing the most words with the session; ties (and the rest) by name. */
export function mostRelevant<T extends { name: string; description: string }>(skills: readonly T[] | RelevanceIndex<T>, sessionText: string, limit = DEFAULT_RELEVANT_SKILLS): T[] {
  const index = isRelevanceIndex(skills) ? skills : undefined;
  const all = index ? index.skills : (skills as readonly T[]);
  if (all.length <= limit) return [...all];
  const { postings, byName } = index ?? relevanceIndex(all);
  const scores = new Uint32Array(all.length);
  const matched: number[] = [];
  for (const w of words(sessionText)) {
    for (const i of postings.get(w) ?? []) {
      if (scores[i] === 0) matched.push(i);
      scores[i]!++;
    }
  }
  matched.sort((a, b) => scores[b]! - scores[a]! || compareNames(all[a]!.name, all[b]!.name) || a - b);
  const chosen = matched.slice(0, limit);
  // Fewer matches than the limit: the rest are the unmatched skills by name.
  for (let k = 0; chosen.length < limit && k < byName.length; k++) if (scores[byName[k]!] === 0) chosen.push(byName[k]!);
  return chosen.map((i) => all[i]!);
}

function isRelevanceIndex<T>(value: readonly T[] | RelevanceIndex<T>): value is RelevanceIndex<T> {
  return !Array.isArray(value);
}
