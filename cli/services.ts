import type { SkillStore } from '../storage';
import type { Connected } from '../runtime/connection';
import type { CommandContext } from './command';

// The Temporal client and the S3 SDK are loaded when a command first needs them, so
// `evolution help` and commands that need neither start fast.

/** Opens what a command needs and closes it afterwards. */
export async function withServices<T>(ctx: CommandContext, fn: (s: { temporal: Connected; store: SkillStore }) => Promise<T>): Promise<T> {
  const config = ctx.config();
  const { ensureReachable } = await import('../runtime/reachability');
  await ensureReachable(config, ['temporal', 's3']);
  const { connectTemporal } = await import('../runtime/connection');
  const { createSkillStore } = await import('../storage');
  const temporal = await connectTemporal(config);
  try {
    return await fn({ temporal, store: createSkillStore(config.s3) });
  } finally {
    await temporal.close();
  }
}

export async function storeOnly(ctx: CommandContext): Promise<SkillStore> {
  const { createSkillStore } = await import('../storage');
  return createSkillStore(ctx.config().s3);
}
