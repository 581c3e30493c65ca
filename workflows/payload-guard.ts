import { ApplicationFailure, log, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { REFUSED_UPDATE_ENCODING, UNAUTHENTICATED_PAYLOAD_MARK, UNENCRYPTED_INPUT_FAILURE } from '../core/payload-authenticity';

interface MaybePayload {
  metadata?: Record<string, Uint8Array | null | undefined> | null;
}

const marked = (payloads: readonly MaybePayload[] | null | undefined) => (payloads ?? []).some((p) => p.metadata?.[UNAUTHENTICATED_PAYLOAD_MARK] != null);

/**
 * Strict payload mode's workflow side (bundled with every workflow: workers/worker.ts
 * WORKFLOW_INTERCEPTOR_MODULES). The codec marks each payload it could not authenticate;
 * here, before any workflow code sees them:
 * - a start input that is marked fails the workflow at once (non-retryable UnencryptedInput);
 * - a marked signal is dropped and logged: failing the workflow would let anyone with
 *   Temporal access end any workflow, and failing the task would wedge it on every replay;
 * - a marked update is rejected before it is accepted (its input gets an encoding no
 *   converter reads), so it leaves nothing in history.
 * Queries, memo and search attributes pass: they change nothing, or are plaintext by design.
 * Without payload keys (or with EVOLUTION_PAYLOAD_STRICT=false) nothing is marked and this
 * does nothing. Every decision follows from the payloads in history, so replay agrees.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let startRefused = false;
  return {
    internals: [
      {
        activate(input, next) {
          const jobs = input.activation.jobs ?? [];
          const kept = jobs.filter((job) => {
            if (job.initializeWorkflow && marked(job.initializeWorkflow.arguments)) startRefused = true;
            if (job.signalWorkflow && marked(job.signalWorkflow.input)) {
              log.warn('signal refused: its payload was not encrypted with a configured key (strict payload mode)', { signal: job.signalWorkflow.signalName });
              return false;
            }
            if (job.doUpdate && marked(job.doUpdate.input)) {
              for (const p of job.doUpdate.input ?? []) p.metadata = { encoding: new TextEncoder().encode(REFUSED_UPDATE_ENCODING) };
            }
            return true;
          });
          return next(kept.length === jobs.length ? input : { ...input, activation: { ...input.activation, jobs: kept } });
        },
      },
    ],
    inbound: [
      {
        async execute(input, next) {
          if (startRefused)
            throw ApplicationFailure.create({
              type: UNENCRYPTED_INPUT_FAILURE,
              nonRetryable: true,
              message: 'the workflow input was not encrypted with a configured payload key (strict payload mode): start workflows through a client with EVOLUTION_PAYLOAD_KEYS',
            });
          return next(input);
        },
      },
    ],
  };
};
