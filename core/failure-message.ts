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

/** Why a workflow failed for good: the last failure of the failing step, as an operator reads it. */
export interface RootCause {
  /** The activity (step) whose failure failed the workflow; absent when the workflow itself failed. */
  step?: string;
  /** The innermost failure's type (e.g. `ServiceUnavailableError`, `NonRetryableStoreError`). */
  type?: string;
  /** The innermost failure's message. */
  error: string;
  /** The unreachable service and its address, when the error names one (the vocabulary of core/errors). */
  service?: string;
  address?: string;
  /** Why the step's retries stopped (Temporal's retry state, e.g. `TIMEOUT` when the tolerance ran out). */
  retryState?: string;
}

type FailureLike = { message?: string; cause?: unknown; activityType?: string; type?: string; retryState?: unknown; name?: string };

/**
 * The root cause of a failure chain (WorkflowFailedError → ActivityFailure → TimeoutFailure →
 * ApplicationFailure): the failing step from the ActivityFailure, type and message from the
 * innermost failure, and the service named in that message.
 */
export function rootCauseOf(err: unknown): RootCause {
  let step: string | undefined;
  let retryState: string | undefined;
  let innermost = err as FailureLike | undefined;
  for (let e = err as FailureLike | undefined, depth = 0; e && depth < 10; e = e.cause as FailureLike | undefined, depth++) {
    if (e.activityType) {
      step = e.activityType;
      if (e.retryState !== undefined && e.retryState !== null) retryState = String(e.retryState);
    }
    if (e.message) innermost = e;
    // An ApplicationFailure is the error the step threw; below it is that error's own cause (e.g. the raw socket error).
    if (e.type && e.message) break;
  }
  const error = innermost?.message ?? String(err);
  const type = innermost?.type ?? (innermost?.name && innermost.name !== 'Error' ? innermost.name : undefined);
  return { ...(step ? { step } : {}), ...(type ? { type } : {}), error, ...unreachableServiceIn(error), ...(retryState ? { retryState } : {}) };
}

/** Service and address named by a message in core/errors' wording (ServiceUnavailableError) (e.g. an activity failure that crossed Temporal as text). */
export function unreachableServiceIn(message: string): { service: string; address: string } | undefined {
  const m = /(?:^|: )(Temporal|S3|the model endpoint) at (\S+) cannot be reached/.exec(message);
  return m ? { service: m[1]!, address: m[2]! } : undefined;
}
