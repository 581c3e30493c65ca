import { setTimeout as delay } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeSkippingEnv } from '../support/time-skipping';

const HOUR = 3_600_000;
/**
 * Longer than three of @temporalio/client's default keepalive intervals (30 s): the Java test
 * server (grpc-java's defaults) drops a connection on the third ping that arrives without it
 * having sent anything since.
 */
const QUIET_MS = 100_000;

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createTimeSkippingEnv();
});
afterAll(async () => env?.teardown());

describe("the time-skipping harness's client connection", () => {
  it(
    'a sleep that waits on the server for longer than three keepalive intervals is neither cut off nor sent twice: time does not skip while a lock is held',
    async () => {
      const testService = env.connection.testService!;
      // Something else holds time (as the server does while an activity runs): the sleep
      // below unlocks its own lock only, so the server's clock moves at real speed meanwhile.
      await testService.lockTimeSkipping({});
      const start = await env.currentTimeMs();
      const sleeping = env.sleep(HOUR);
      // No call in between: the connection stays quiet except for the sleep in flight.
      await delay(QUIET_MS);
      const whileHeld = (await env.currentTimeMs()) - start;
      // A dropped sleep, sent again by the client's retry, unlocks a second time and takes the
      // other lock away: the server skips to the first sleep's end (1 hour) while it is held.
      expect(whileHeld, `server time moved ${(whileHeld / 60_000).toFixed(1)} min in ${QUIET_MS / 1000} s while time skipping was locked`).toBeLessThan(QUIET_MS + 60_000);
      await testService.unlockTimeSkipping({});
      await sleeping;
      const slept = (await env.currentTimeMs()) - start;
      expect(slept).toBeGreaterThanOrEqual(HOUR);
      expect(slept).toBeLessThan(HOUR + 60_000);
    },
    QUIET_MS + 60_000,
  );
});
