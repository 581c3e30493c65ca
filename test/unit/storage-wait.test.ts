import { describe, expect, it } from 'vitest';
import { StorageWaits } from '../../workers/telemetry/storage-wait';

describe('the waiting-for-storage gauge', () => {
  it('counts workflows whose storage step failed and has not succeeded since; model calls and permanent failures are not waits', () => {
    const waits = new StorageWaits();
    const down = new Error('connect ECONNREFUSED 127.0.0.1:9000');
    waits.observe('recordAndPublishRevision', 'learning/a', down, 0);
    waits.observe('advanceCursorAndPlan', 'learning/b', down, 0);
    waits.observe('advanceCursorAndPlan', 'learning/b', down, 1_000);
    waits.observe('reviewSession', 'learning/c', down, 0);
    waits.observe('publishRevision', 'approval/r', Object.assign(new Error('bad'), { nonRetryable: true }), 0);
    expect(waits.count(2_000)).toBe(2);
    waits.observe('recordAndPublishRevision', 'learning/a', undefined, 3_000);
    expect(waits.count(3_000)).toBe(1);
    // A workflow whose next attempt ran elsewhere is forgotten after a while.
    expect(waits.count(100_000)).toBe(0);
  });
});
