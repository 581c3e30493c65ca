/** The most specific message of a failure chain (ChildWorkflowFailure → ActivityFailure → ApplicationFailure). */
export function failureMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  let message = e?.message ?? String(err);
  while (e?.cause) {
    e = e.cause as { message?: string; cause?: unknown };
    if (e?.message) message = e.message;
  }
  return message;
}
