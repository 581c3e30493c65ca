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

export function mostRelevant<T extends { name: string; description: string }>(skills: readonly T[], sessionText: string, limit = DEFAULT_RELEVANT_SKILLS): T[] {
  if (skills.length <= limit) return [...skills];
  const session = words(sessionText);
  const scored = skills.map((s) => {
    let score = 0;
    for (const w of words(`${s.name.replaceAll('-', ' ')} ${s.description}`)) if (session.has(w)) score++;
    return { s, score };
  });
  scored.sort((a, b) => b.score - a.score || (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0));
  return scored.slice(0, limit).map((x) => x.s);
}
