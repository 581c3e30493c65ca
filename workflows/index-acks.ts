import type { Duration } from '@temporalio/common';
import { condition, patched, setHandler } from '@temporalio/workflow';
import { indexAppliedSignal } from '../core/workflow-api/scope-index';
import { conditionOrAlarm } from './alarm';

// Apart from the scope index workflow's module: a publishing workflow's instance loads this, not the index workflow.

/** A publisher waits for the index's ack on an alarm: its timer is not cancelled when the ack comes. */
const INDEX_ACK_ALARM_PATCH = 'index-ack-alarm';

/**
 * For a publishing workflow: waits (at most `timeout`) until the scope's index workflow
 * has materialized pointer seq `seq` of the skill, so that when the workflow returns, an
 * agent's next refresh sees the change. A timeout is not an error: the index follows.
 */
export function indexAcks(): { until(skillId: string, seq: number | undefined, timeout: Duration): Promise<boolean> } {
  const applied = new Map<string, number>();
  setHandler(indexAppliedSignal, (a) => void applied.set(a.skillId, Math.max(applied.get(a.skillId) ?? -1, a.seq)));
  return {
    until: async (skillId, seq, timeout) => {
      if (seq === undefined) return true;
      const materialized = () => (applied.get(skillId) ?? -1) >= seq;
      return patched(INDEX_ACK_ALARM_PATCH) ? conditionOrAlarm(materialized, timeout) : condition(materialized, timeout);
    },
  };
}
