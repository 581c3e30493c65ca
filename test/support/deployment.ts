import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infra/paths';

/**
 * Facts of the code that the deployment files must agree with, read from the code itself so
 * that a change there fails the compose and Kubernetes tests instead of drifting.
 */

/** The longest SIGTERM drain of any worker (shutdownGraceTime in workers/), in seconds. */
export function workerDrainSeconds(): number {
  const files = ['workers/worker.ts', 'workers/evaluator/worker.ts'];
  const seconds = files.map((f) => {
    const m = /shutdownGraceTime:\s*'(\d+) seconds?'/.exec(readFileSync(join(REPO_ROOT, f), 'utf8'));
    if (!m) throw new Error(`${f}: no shutdownGraceTime in seconds found (update test/support/deployment.ts)`);
    return Number(m[1]);
  });
  return Math.max(...seconds);
}

/** `30s`, `1m30s`, `2m` (compose durations) in seconds. */
export function composeDurationSeconds(value: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value.trim());
  if (!m || value.trim() === '') throw new Error(`not a duration: ${value}`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** Images that are no longer published (or deprecated) and must not come back. */
export const RETIRED_IMAGES = [/^minio\//, /^temporalio\/auto-setup(:|$)/];

/** The CLI subcommands a container may run as its role. */
export const ROLE_COMMANDS = { worker: 'worker', evaluator: 'evaluator-worker', console: 'console' } as const;
