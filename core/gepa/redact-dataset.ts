import type { Case, Dataset } from '../schemas/gepa';
import { redactJsonStrings, redactSecrets } from '../skills/redaction';

/**
 * A dataset as it may be stored: every case's input, expected value and metadata
 * credential-redacted (invariant 8: what a client sends is redacted before storage).
 * Ids and flags are kept, so evaluators and records still refer to the same cases.
 */
export function redactDataset(dataset: Dataset): Dataset {
  const redactCase = (c: Case): Case => ({
    ...c,
    input: redactJsonStrings(c.input) as Case['input'],
    ...(c.expected !== undefined ? { expected: redactJsonStrings(c.expected) as Case['expected'] } : {}),
    ...(c.metadata !== undefined ? { metadata: Object.fromEntries(Object.entries(c.metadata).map(([k, v]) => [k, redactSecrets(v)])) } : {}),
  });
  return { ...dataset, feedback: dataset.feedback.map(redactCase), validation: dataset.validation.map(redactCase), holdout: dataset.holdout.map(redactCase) };
}
