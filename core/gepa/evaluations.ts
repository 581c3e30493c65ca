import { EvaluationSchema, type Evaluation } from '../schemas/gepa';

export class EvaluationContractError extends Error {
  override name = 'EvaluationContractError';
}

/**
 * Checks an evaluator's answer against the cases it was given (exactly one valid
 * evaluation per case, no strangers, no duplicates) and returns the evaluations
 * and scores in case order.
 */
export function alignEvaluations(caseIds: readonly string[], raw: readonly unknown[]): { evaluations: Evaluation[]; scores: number[] } {
  const problems: string[] = [];
  const wanted = new Set(caseIds);
  const byId = new Map<string, Evaluation>();
  raw.forEach((item, index) => {
    const parsed = EvaluationSchema.safeParse(withoutNullOptionals(item));
    if (!parsed.success) {
      const caseId = (item as { caseId?: unknown } | null)?.caseId;
      const which = typeof caseId === 'string' ? `evaluation #${index + 1} (case "${caseId}")` : `evaluation #${index + 1}`;
      problems.push(`${which}: ${parsed.error.issues.map((i) => (i.path.length && i.path[0] !== 'score' ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')}`);
      return;
    }
    const e = parsed.data;
    if (!wanted.has(e.caseId)) problems.push(`evaluation for unexpected case "${e.caseId}"`);
    else if (byId.has(e.caseId)) problems.push(`duplicate evaluation for case "${e.caseId}"`);
    else byId.set(e.caseId, e);
  });
  const missing = caseIds.filter((id) => !byId.has(id) && !problems.some((p) => p.includes(`"${id}"`)));
  if (missing.length > 0) problems.push(`no evaluation for case${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')}`);
  if (problems.length > 0) {
    throw new EvaluationContractError(`evaluator broke its contract (${caseIds.length} cases sent, ${raw.length} evaluations returned): ${problems.join('; ')}`);
  }
  const evaluations = caseIds.map((id) => byId.get(id) as Evaluation);
  return { evaluations, scores: evaluations.map((e) => e.score) };
}

const OPTIONAL_FIELDS = ['output', 'feedback', 'trace', 'objectives', 'tokens', 'costUsd', 'evaluatorVersion', 'modelVersion'] as const;

/** `null` in an optional field means absent (every SDK's JSON encoder writes None/nil that way). */
function withoutNullOptionals(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const record = item as Record<string, unknown>;
  if (!OPTIONAL_FIELDS.some((f) => record[f] === null)) return item;
  const copy = { ...record };
  for (const f of OPTIONAL_FIELDS) if (copy[f] === null) delete copy[f];
  return copy;
}

/** Sum of scores in the given order (both sides of a paired comparison add in the same order). */
export function scoreTotal(scores: readonly number[]): number {
  let total = 0;
  for (const s of scores) total += s;
  return total;
}
