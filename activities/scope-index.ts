import { Context } from '@temporalio/activity';
import type { IndexChange } from '../core';
import { withStoreErrors } from './errors';
import { whileHeartbeating } from './heartbeat';
import type { SkillStore } from './storage';

/**
 * Activities of the scope index workflow, the only writer of a scope's index.json and
 * SKILL.md files: both are derived from the pointers and follow them by seq.
 */
export function scopeIndexActivities({ store }: { store: SkillStore }) {
  const heartbeat = () => Context.current().heartbeat();
  return {
    /** One burst of pointer changes: the SKILL.md of every change that is newer, then one conditional index write. */
    async applyScopeIndexChanges({ scopeKey, changes }: { scopeKey: string; changes: IndexChange[] }): Promise<{ applied: number }> {
      return withStoreErrors(() => whileHeartbeating(async () => ({ applied: (await store.applyScopeIndexChanges(scopeKey, changes, heartbeat)).length })));
    },

    /** Full reconcile from every pointer of the scope (paged listing, heartbeating), plus pending changes. */
    async reconcileScopeIndex({ scopeKey, changes }: { scopeKey: string; changes: IndexChange[] }): Promise<{ applied: number }> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => ({
          applied: (await store.reconcileScopeIndex(scopeKey, changes, (done, total) => Context.current().heartbeat({ done, total }))).length,
        })),
      );
    },
  };
}
