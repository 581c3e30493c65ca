import { Context } from '@temporalio/activity';
import type { IndexChange } from '../core';
import { withStoreErrors } from './errors';
import { whileHeartbeating } from './heartbeat';
import type { SkillStore } from '../storage';

/**
 * Activities of the scope index workflow, the only writer of a scope's index.json: derived
 * from the pointers, it follows them by seq.
 */
export function scopeIndexActivities({ store }: { store: SkillStore }) {
  return {
    /** One burst of pointer changes (and the rejections version announced): one conditional index write of those newer than the index. */
    async applyScopeIndexChanges({ scopeKey, changes, rejections }: { scopeKey: string; changes: IndexChange[]; rejections?: number }): Promise<{ applied: number }> {
      return withStoreErrors(() => whileHeartbeating(async () => ({ applied: (await store.applyScopeIndexChanges(scopeKey, changes, rejections)).length })));
    },

    /** Full reconcile from every pointer of the scope (paged listing, heartbeating), plus pending changes. */
    async reconcileScopeIndex({ scopeKey, changes, rejections }: { scopeKey: string; changes: IndexChange[]; rejections?: number }): Promise<{ applied: number }> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => ({
          applied: (await store.reconcileScopeIndex(scopeKey, changes, (done, total) => Context.current().heartbeat({ done, total }), rejections)).length,
        })),
      );
    },
  };
}
