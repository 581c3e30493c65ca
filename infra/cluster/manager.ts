import { createConnection } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBinary } from '../binaries';
import { withDirLockAsync } from '../lock';
import { infraUp } from '../manager';
import { ExitedDuringStartupError, freePorts, isAlive, portsFree, sleep, waitUntil } from '../process';
import { localS3Settings, logTail, s3StoresObjects } from '../services';
import { readState } from '../state';
import { ensurePostgresInstalled, initPostgres, postgresDataDir, postgresReady, postgresSpec } from './postgres';
import { SEAWEED_PORT_NAMES, seaweedProcessSpecs, seaweedServerAnswers, VOLUME_SERVERS, volumeName } from './seaweed-cluster';
import { startClusterProcess } from './spawn';
import { clusterDir, readClusterState, writeClusterState, type ClusterProcessSpec, type ClusterProcessState, type ClusterState } from './state';
import { ensureTemporalServer, TEMPORAL_SERVER_BUILD } from './temporal-build';
import {
  CLUSTER_NAMESPACE,
  HISTORY_SHARDS,
  prepareNamespace,
  setUpTemporalSchema,
  TEMPORAL_PORT_NAMES,
  TEMPORAL_SERVICES,
  temporalProcessSpecs,
  temporalServing,
  type TemporalPorts,
  type TemporalService,
} from './temporal-cluster';

/** Every process of the cluster, in start order (stopped in reverse). */
export function clusterProcessNames(): string[] {
  return ['postgres', ...TEMPORAL_SERVICES.map((s) => `temporal-${s}`), 'weed-master', ...Array.from({ length: VOLUME_SERVERS }, (_, i) => volumeName(i)), 'weed-filer', 'weed-s3'];
}

function portNames(name: string): readonly string[] {
  if (name === 'postgres') return ['sql'];
  if (name.startsWith('temporal-')) return TEMPORAL_PORT_NAMES[name.slice('temporal-'.length) as keyof typeof TEMPORAL_PORT_NAMES];
  if (name.startsWith('weed-volume-')) return SEAWEED_PORT_NAMES.volume;
  return SEAWEED_PORT_NAMES[name.slice('weed-'.length) as 'master' | 'filer' | 's3'];
}

/**
 * The ports of every process: those of the running cluster, or of the last one when all
 * are free again (clients still running find it where it was), or fresh ones. One
 * allocation for all, so no two processes are handed the same port.
 */
async function clusterPorts(state: ClusterState): Promise<Record<string, Record<string, number>>> {
  const names = clusterProcessNames();
  const running = names.some((n) => isAlive(state.processes[n]?.pid));
  const previous = (n: string) => state.processes[n]?.ports ?? state.lastPorts?.[n];
  const complete = names.every((n) => portNames(n).every((p) => typeof previous(n)?.[p] === 'number'));
  if (complete) {
    const old = names.map((n) => previous(n)!);
    if (running || (await portsFree(old.flatMap((p) => Object.values(p))))) return Object.fromEntries(names.map((n, i) => [n, old[i]!]));
  }
  const fresh = await freePorts(names.reduce((sum, n) => sum + portNames(n).filter((p) => p !== 'membership').length, 0));
  const membership = await lowPorts(TEMPORAL_SERVICES.length, fresh);
  return Object.fromEntries(names.map((n) => [n, Object.fromEntries(portNames(n).map((p) => [p, p === 'membership' ? membership.shift()! : fresh.shift()!]))]));
}

/**
 * Free ports below 32768: the SQL stores keep a service's membership port in a smallint
 * column, and the kernel hands out ports from 32768 up.
 */
export async function lowPorts(count: number, taken: number[]): Promise<number[]> {
  const picked: number[] = [];
  while (picked.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!picked.includes(port) && !taken.includes(port) && (await portsFree([port]))) picked.push(port);
  }
  return picked;
}

function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** The S3 gateway's endpoint in a cluster state. */
function s3Endpoint(state: ClusterState): string | undefined {
  const s3 = state.processes['weed-s3'];
  return s3 && `http://127.0.0.1:${s3.ports.http}`;
}

/** Whether one process is up: answering as the service it is, not merely running. */
async function processReady(p: ClusterProcessSpec, pgBin?: string): Promise<boolean> {
  if (p.name === 'postgres') return pgBin ? postgresReady(pgBin, p.ports.sql!) : tcpAccepts(p.ports.sql!);
  if (p.name.startsWith('temporal-')) return temporalServing(p.name.slice('temporal-'.length) as TemporalService, p.ports.grpc!);
  if (p.name === 'weed-master') return seaweedServerAnswers(p.ports.http!, '/cluster/status');
  if (p.name.startsWith('weed-volume-')) return seaweedServerAnswers(p.ports.http!, '/status');
  if (p.name === 'weed-filer') return seaweedServerAnswers(p.ports.http!, '/');
  return s3StoresObjects(`http://127.0.0.1:${p.ports.http}`);
}

/** A log's last lines, each without its stack trace and cut short (the Temporal services log one JSON object a line). */
function shortTail(file: string): string {
  return logTail(file, 8)
    .split('\n')
    .map((l) => l.replace(/,"stacktrace":"(?:[^"\\]|\\.)*"/, '').slice(0, 500))
    .join('\n');
}

const READY_TIMEOUT_MS = 120_000;

/** Starts one process and waits until it is ready; a process that dies while starting is started once more (as the dev stack does). */
async function startProcess(spec: ClusterProcessSpec, log: (line: string) => void, pgBin?: string): Promise<ClusterProcessState> {
  const attempt = async (): Promise<ClusterProcessState> => {
    const pid = startClusterProcess(spec.command, spec.args, { logFile: spec.logFile, cwd: spec.cwd, runAs: spec.runAs, env: { ...process.env, ...spec.env } });
    await waitUntil(spec.name, () => processReady(spec, pgBin), READY_TIMEOUT_MS, pid);
    return { ...spec, pid, startedAt: new Date().toISOString() };
  };
  const started = Date.now();
  try {
    const s = await attempt().catch(async (e: unknown) => {
      if (!(e instanceof ExitedDuringStartupError)) throw e;
      log(`${spec.name}: ${e.message}; starting it once more\n--- log tail ---\n${shortTail(spec.logFile)}`);
      return attempt();
    });
    log(`${spec.name} up (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return s;
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- ${spec.logFile} ---\n${shortTail(spec.logFile)}`);
  }
}

/** Stops a process group: `signal` first (SIGINT is PostgreSQL's fast shutdown), SIGKILL after the grace period. */
async function stopProcess(p: { pid: number; name: string }, graceMs = 15_000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-p.pid, sig);
    } catch {
      /* already gone */
    }
  };
  signal(p.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(p.pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(p.pid)) signal('SIGKILL');
  while (isAlive(p.pid)) await sleep(50);
}

async function keepOrStart(state: ClusterState, spec: ClusterProcessSpec, log: (line: string) => void, pgBin?: string): Promise<void> {
  const current = state.processes[spec.name];
  if (current && isAlive(current.pid) && JSON.stringify(current.args) === JSON.stringify(spec.args)) {
    if (await processReady(current, pgBin).catch(() => false)) return;
  }
  if (current && isAlive(current.pid)) await stopProcess(current);
  state.processes[spec.name] = await startProcess(spec, log, pgBin);
  writeClusterState(state);
}

function schemaMarker(): string {
  return join(clusterDir(), `schema-${TEMPORAL_SERVER_BUILD.version}`);
}

/**
 * Brings the whole local cluster up (PostgreSQL, the four Temporal services, SeaweedFS
 * master, volume servers, filer and S3 gateway; the dev stack's model server), reusing
 * every process that is already running and ready. Idempotent; a lock serializes callers.
 */
export async function clusterUp(opts: { log?: (line: string) => void } = {}): Promise<ClusterState> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const binaries = await ensureTemporalServer(log);
  const weed = ensureBinary('weed', log);
  const pgBin = await ensurePostgresInstalled(log);
  const state = await withDirLockAsync(join(clusterDir(), 'lock'), async () => {
    const state = readClusterState();
    const ports = await clusterPorts(state);
    const dir = clusterDir();
    const logDir = join(dir, 'logs');

    const pgData = postgresDataDir(join(dir, 'postgres', 'data'), log);
    await initPostgres({ bin: pgBin, dataDir: pgData, log });
    await keepOrStart(state, postgresSpec({ bin: pgBin, dataDir: pgData, port: ports.postgres!.sql!, logDir }), log, pgBin);
    const firstStart = !existsSync(schemaMarker());
    if (firstStart) {
      await setUpTemporalSchema({ binaries, postgresPort: ports.postgres!.sql!, log });
      writeFileSync(schemaMarker(), `${HISTORY_SHARDS} history shards\n`);
    }

    const temporalPorts = Object.fromEntries(TEMPORAL_SERVICES.map((s) => [s, ports[`temporal-${s}`]])) as TemporalPorts;
    const temporalSpecs = temporalProcessSpecs({ binaries, dir: join(dir, 'temporal'), logDir, ports: temporalPorts, postgresPort: ports.postgres!.sql! });
    // On a new database the frontend starts first: the first service writes the cluster's
    // metadata, and two at once race on it. Later, all four start together: each joins the
    // membership ring through the others, and one alone waits 30 s for the rest.
    const [frontendSpec] = temporalSpecs;
    if (firstStart) await keepOrStart(state, frontendSpec!, log);
    await Promise.all(temporalSpecs.map((spec) => keepOrStart(state, spec, log)));
    const frontend = `127.0.0.1:${temporalPorts.frontend.grpc}`;
    if (await prepareNamespace(frontend, log)) {
      // Every service caches namespaces and search attributes: restarted, they read the new ones.
      log('restarting the Temporal services so that they see the new namespace and search attributes …');
      for (const spec of temporalSpecs) await stopProcess(state.processes[spec.name]!);
      await Promise.all(temporalSpecs.map(async (spec) => (state.processes[spec.name] = await startProcess(spec, log))));
    }

    const died = temporalSpecs.filter((spec) => !isAlive(state.processes[spec.name]?.pid));
    if (died.length) throw new Error(died.map((spec) => `${spec.name} exited after start-up\n--- ${spec.logFile} ---\n${shortTail(spec.logFile)}`).join('\n'));

    for (const spec of seaweedProcessSpecs({ weed, dir: join(dir, 's3'), logDir, ports })) await keepOrStart(state, spec, log);
    writeClusterState(state);
    return state;
  });
  // The model server stand-in is the dev stack's (one per checkout, whichever Temporal it serves).
  await infraUp({ only: ['model'], log });
  log(`cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return state;
}

/** Stops every process of the cluster: SeaweedFS, then the Temporal services, each group at once, PostgreSQL last; data directories are kept. */
export async function clusterDown(): Promise<void> {
  const state = readClusterState();
  const names = clusterProcessNames();
  for (const group of [names.filter((n) => n.startsWith('weed-')), names.filter((n) => n.startsWith('temporal-')), ['postgres']]) {
    await Promise.all(
      group.map(async (name) => {
        const p = state.processes[name];
        if (!p) return;
        if (isAlive(p.pid)) await stopProcess(p);
        (state.lastPorts ??= {})[name] = p.ports;
        delete state.processes[name];
      }),
    );
  }
  writeClusterState(state);
}

export interface ClusterProcessStatus {
  name: string;
  running: boolean;
  ready: boolean;
  pid?: number;
  ports?: Record<string, number>;
  logFile?: string;
}

export async function clusterStatus(): Promise<ClusterProcessStatus[]> {
  const state = readClusterState();
  return Promise.all(
    clusterProcessNames().map(async (name) => {
      const p = state.processes[name];
      const running = isAlive(p?.pid);
      return { name, running, ready: running && (await processReady(p!).catch(() => false)), pid: p?.pid, ports: p?.ports, logFile: p?.logFile };
    }),
  );
}

/** The environment pointing workers, consoles, clients and tests at the cluster. */
export function clusterEnv(state: ClusterState = readClusterState()): Record<string, string> {
  const env: Record<string, string> = {};
  const frontend = state.processes['temporal-frontend'];
  if (frontend) Object.assign(env, { TEMPORAL_ADDRESS: `127.0.0.1:${frontend.ports.grpc}`, TEMPORAL_NAMESPACE: CLUSTER_NAMESPACE });
  const s3 = s3Endpoint(state);
  if (s3) {
    const { accessKeyId, secretAccessKey, bucket } = localS3Settings();
    Object.assign(env, { S3_ENDPOINT: s3, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: 'true' });
  }
  const model = readState().services.model;
  if (model) env.OPENAI_BASE_URL = model.endpoint;
  return env;
}

/** Kills one process of the cluster the hard way (a crash), leaving its state for `restartClusterProcess`. */
export async function killClusterProcess(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const p = readClusterState().processes[name];
  if (!p || !isAlive(p.pid)) throw new Error(`cluster process ${name} is not running`);
  try {
    process.kill(-p.pid, signal);
  } catch {
    process.kill(p.pid, signal);
  }
  const deadline = Date.now() + 30_000;
  while (isAlive(p.pid)) {
    if (Date.now() > deadline) throw new Error(`${name} (pid ${p.pid}) did not exit on ${signal}`);
    await sleep(50);
  }
}

/** Starts one process again exactly as it ran before (same command, ports and data), and waits until it is ready. */
export async function restartClusterProcess(name: string, log: (line: string) => void = () => {}): Promise<void> {
  await withDirLockAsync(join(clusterDir(), 'lock'), async () => {
    const state = readClusterState();
    const p = state.processes[name];
    if (!p) throw new Error(`cluster process ${name} was never started`);
    if (isAlive(p.pid)) await stopProcess(p);
    state.processes[name] = await startProcess(p, log);
    writeClusterState(state);
  });
}
