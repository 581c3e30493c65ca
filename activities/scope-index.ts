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
  async function materialize(scopeKey: string, applied: IndexChange[]) {
    for (const change of applied) {
      if (change.entry && change.markdown !== undefined) await store.writePublished(scopeKey, change.skillId, change.markdown);
      else if (!change.entry) await store.deletePublished(scopeKey, change.skillId);
      Context.current().heartbeat();
    }
  }

  return {
    /** One burst of pointer changes: one conditional index write, then the SKILL.md of every change that was newer. */
    async applyScopeIndexChanges({ scopeKey, changes }: { scopeKey: string; changes: IndexChange[] }): Promise<{ applied: number }> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => {
          const applied = await store.applyScopeIndexChanges(scopeKey, changes);
          await materialize(scopeKey, applied);
          return { applied: applied.length };
        }),
      );
    },

    /** Full reconcile from every pointer of the scope (paged listing, heartbeating), plus pending changes. */
    async reconcileScopeIndex({ scopeKey, changes }: { scopeKey: string; changes: IndexChange[] }): Promise<{ applied: number }> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => {
          const applied = await store.reconcileScopeIndex(scopeKey, changes, (done, total) => Context.current().heartbeat({ done, total }));
          await materialize(scopeKey, applied);
          return { applied: applied.length };
        }),
      );
    },
  };
}
