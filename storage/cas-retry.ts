import { PreconditionConflictError } from './errors';

export interface CasRetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs a read-modify-conditional-write `attempt` again (with jittered backoff) while it
 * loses the race, so it always re-reads before re-writing. After the last attempt the
 * conflict propagates (retryable: Temporal may run the activity again).
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, options: CasRetryOptions = {}): Promise<T> {
  const { attempts = 20, baseDelayMs = 5, maxDelayMs = 250 } = options;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof PreconditionConflictError) || n >= attempts) throw error;
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** n);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}
