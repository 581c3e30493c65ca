import type { SkillStore } from '../storage';
import type { Connected } from '../runtime/connection';
import type { CommandContext } from './command';

// The Temporal client and the S3 SDK are loaded when a command first needs them, so
// `evolution help` and commands that need neither start fast.

/** Opens what a command needs and closes it afterwards. */
/**
 * `needs`: the services checked before the command runs (default both). A command that can
 * answer while S3 is down (the view of a job waiting for storage) checks Temporal only; its
 * store calls then fail with the store's own one-line error. The command runs at the client
 * boundary, as a platform's calls do (client/service-errors.ts): Temporal must answer within
 * EVOLUTION_CLIENT_CONNECT_TIMEOUT (a port that accepts but a server that does not answer is
 * not a hang), and a service that stops answering is the same one-line error.
 */
export async function withServices<T>(
  ctx: CommandContext,
  fn: (s: { temporal: Connected; store: SkillStore }) => Promise<T>,
  needs: ('temporal' | 's3')[] = ['temporal', 's3'],
): Promise<T> {
  const config = ctx.config();
  const { ensureReachable } = await import('../runtime/reachability');
  await ensureReachable(config, needs);
  const { connectTemporal } = await import('../runtime/connection');
  const { createSkillStore } = await import('../storage');
  const { withinClientDeadline } = await import('../client/service-errors');
  const temporal = await connectTemporal(config);
  try {
    const store = createSkillStore(config.s3);
    return await withinClientDeadline(temporal.client, config, () => fn({ temporal, store }), { waits: true });
  } finally {
    await temporal.close();
  }
}

/**
 * The store of a command that needs S3 only. Its calls are client calls: each S3 request they
 * make has the client deadline (EVOLUTION_CLIENT_CONNECT_TIMEOUT) to answer, so an S3 that
 * accepts connections but does not answer is the one line within the bound, not a hang.
 */
export async function storeOnly(ctx: CommandContext): Promise<SkillStore> {
  const config = ctx.config();
  const { createSkillStore } = await import('../storage');
  const { underClientDeadline } = await import('../storage/client-deadline');
  const { clientTimeoutMs } = await import('../client/client-timeout');
  return underClientDeadline(createSkillStore(config.s3), clientTimeoutMs(config));
}
