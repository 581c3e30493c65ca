/** What near-duplicate detection compares: the index entry of a live skill (no content read). */
export interface SimilarityEntry {
  skillId: string;
  name: string;
  description: string;
}

export interface NearDuplicatePair {
  /** Ordered by skill id, so a pair has one identity whatever order the index lists them in. */
  a: string;
  b: string;
  /** Jaccard similarity of their word sets, in [0, 1]. */
  similarity: number;
}

const STOP_WORDS = new Set(
  'a an and are as at be by for from how in into is it its of on or that the this to use used uses using when with without you your skill skills'.split(' '),
);

/** The words a skill is compared by: name and description, lower-cased, split on anything not a letter or digit, stop words and one- or two-letter words left out. */
export function similarityWords(entry: Pick<SimilarityEntry, 'name' | 'description'>): Set<string> {
  const words = `${entry.name} ${entry.description}`
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w));
  return new Set(words);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Candidate near-duplicate pairs, most similar first (ties by skill ids), each skill in at
 * most one pair, at most `limit` pairs. Deterministic. Only pairs sharing a word are
 * compared (an inverted index), so 2,000 skills with distinct vocabularies cost little;
 * a word shared by more than `maxPosting` skills is too common to say anything and is
 * not used to find pairs (it still counts in the similarity).
 */
export function nearDuplicatePairs(entries: readonly SimilarityEntry[], opts: { threshold: number; limit: number; maxPosting?: number }): NearDuplicatePair[] {
  const maxPosting = opts.maxPosting ?? 50;
  const sorted = [...entries].sort((x, y) => (x.skillId < y.skillId ? -1 : x.skillId > y.skillId ? 1 : 0));
  const words = sorted.map(similarityWords);
  const postings = new Map<string, number[]>();
  words.forEach((ws, i) => {
    for (const w of ws) {
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
  });
  const seen = new Set<number>();
  const pairs: NearDuplicatePair[] = [];
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > maxPosting) continue;
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x]!;
        const j = list[y]!;
        const key = i * sorted.length + j;
        if (seen.has(key)) continue;
        seen.add(key);
        const similarity = jaccard(words[i]!, words[j]!);
        if (similarity >= opts.threshold) pairs.push({ a: sorted[i]!.skillId, b: sorted[j]!.skillId, similarity });
      }
  }
  pairs.sort((p, q) => q.similarity - p.similarity || (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : p.b > q.b ? 1 : 0));
  const used = new Set<string>();
  const chosen: NearDuplicatePair[] = [];
  for (const p of pairs) {
    if (chosen.length >= opts.limit) break;
    if (used.has(p.a) || used.has(p.b)) continue;
    used.add(p.a);
    used.add(p.b);
    chosen.push(p);
  }
  return chosen;
}
