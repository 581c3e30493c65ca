import { createSkillStore, type SkillStore } from '../../activities/storage';
import { connectTemporal, type Connected } from '../connection';
import { ensureReachable } from '../reachability';
import type { CommandContext } from './command';

/** Opens what a command needs and closes it afterwards. */
export async function withServices<T>(ctx: CommandContext, fn: (s: { temporal: Connected; store: SkillStore }) => Promise<T>): Promise<T> {
  const config = ctx.config();
  await ensureReachable(config, ['temporal', 's3']);
  const temporal = await connectTemporal(config);
  try {
    return await fn({ temporal, store: createSkillStore(config.s3) });
  } finally {
    await temporal.close();
  }
}

export function storeOnly(ctx: CommandContext): SkillStore {
  return createSkillStore(ctx.config().s3);
}
