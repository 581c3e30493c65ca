import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvolutionConfig } from '../../core';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { realServices } from '../support/infra';

/**
 * A client of the application (the CLI's, the console's, a platform's through the same
 * options) keeps trying a Temporal server that went away at least every few seconds, so it
 * is back within seconds of the server (infra-restart failed in a fresh-clone run: after a
 * 45 s outage the client's next attempt was further away than its call's retries lasted).
 * The server here is the real dev server behind a TCP relay the test takes down: while it
 * is down, the relay's port accepts each connection attempt and closes it at once.
 */
const OUTAGE_MS = 30_000;

let config: EvolutionConfig;
let relay: Relay;
let connected: Connected;

beforeAll(async () => {
  config = await realServices(['temporal']);
  const [host, port] = splitAddress(config.temporal.address);
  relay = await startRelay(host, port);
  connected = await connectTemporal({ ...config, temporal: { ...config.temporal, address: `127.0.0.1:${relay.port}` } });
});
afterAll(async () => {
  await connected?.close();
  await relay?.close();
});

describe('a client while Temporal is down', () => {
  it('tries again at least every few seconds, and its first call after the server is back succeeds', async () => {
    const service = connected.client.workflowService;
    await service.getSystemInfo({});

    const attempts = await relay.down(OUTAGE_MS, async () => {
      // Calls keep coming while the server is away (a console polling, a waiting CLI), each failing fast.
      await connected.client.connection.withDeadline(Date.now() + 1_000, () => service.getSystemInfo({})).catch(() => undefined);
    });
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    const afterFirst10s = gaps.filter((_, i) => attempts[i + 1]! > 10_000);
    expect(afterFirst10s.length, `connection attempts at ${attempts.map((a) => (a / 1000).toFixed(1)).join(', ')} s`).toBeGreaterThan(3);
    // grpc-js alone waits up to 120 s between attempts (after 30 s of outage: 10 to 20 s, two attempts after the first 10 s).
    // Capped at 3 s (3.6 s with its jitter); the bound leaves room for a loaded machine's event loop.
    expect(Math.max(...afterFirst10s), `connection attempts at ${attempts.map((a) => (a / 1000).toFixed(1)).join(', ')} s`).toBeLessThan(8_000);

    // The first call after the outage, with the client's own retries, reaches the server.
    await expect(service.getSystemInfo({})).resolves.toBeDefined();
  }, 90_000);
});

function splitAddress(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i), Number(address.slice(i + 1))];
}

interface Relay {
  port: number;
  /** Takes the server away for `ms` (calling `during` every 2 s meanwhile); the connection attempts seen, in ms from the start. */
  down(ms: number, during: () => Promise<void>): Promise<number[]>;
  close(): Promise<void>;
}

/** A TCP relay to host:port on a port of its own. */
async function startRelay(host: string, port: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let refusing: number[] | undefined;
  let started = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      refusing.push(Date.now() - started);
      client.destroy();
      return;
    }
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const s of [client, upstream]) {
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        (s === client ? upstream : client).destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async down(ms, during) {
      refusing = [];
      started = Date.now();
      for (const s of sockets) s.destroy();
      while (Date.now() - started < ms) {
        await Promise.all([during(), new Promise((r) => setTimeout(r, 2_000))]);
      }
      const seen = refusing;
      refusing = undefined;
      return seen;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
