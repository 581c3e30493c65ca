import { boundText, redactSecrets, type Evaluation } from '../../core';

/** Cap of each stored output/feedback/trace, in UTF-8 bytes (as the reference stores them). */
export const STORED_TEXT_MAX_BYTES = 16 * 1024;

/** Redacted, then bounded head+tail (a loose first cut keeps redaction cheap on huge texts). */
export function storedText(text: string): string {
  return boundText(redactSecrets(boundText(text, 4 * STORED_TEXT_MAX_BYTES)), STORED_TEXT_MAX_BYTES);
}

export function storedEvaluation(e: Evaluation): Evaluation {
  const out: Evaluation = { caseId: e.caseId, score: e.score };
  if (e.output !== undefined) out.output = storedText(e.output);
  if (e.feedback !== undefined) out.feedback = storedText(e.feedback);
  if (e.trace !== undefined) out.trace = storedText(e.trace);
  if (e.objectives !== undefined) out.objectives = e.objectives;
  if (e.tokens !== undefined) out.tokens = e.tokens;
  if (e.costUsd !== undefined) out.costUsd = e.costUsd;
  if (e.evaluatorVersion !== undefined) out.evaluatorVersion = e.evaluatorVersion;
  if (e.modelVersion !== undefined) out.modelVersion = e.modelVersion;
  return out;
}
