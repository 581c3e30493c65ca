import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBinary } from './binaries';
import { REPO_ROOT, stateDir } from './paths';
import { reusePortsOrFresh, startDetached, waitUntil } from './process';
import type { ServiceName, ServiceState } from './state';
import { createS3Client } from '../storage/s3-client';
import { localS3AuthCurrent, writeLocalS3Auth } from './s3-auth';
import { SEARCH_ATTRIBUTE_NAMES } from '../core/search-attributes';

const run = promisify(execFile);

/** Credentials and bucket of the local S3 server (the config defaults; override by env). */
export function localS3Settings() {
  return {
    accessKeyId: process.env.S3_ACCESS_KEY_ID || 'evolution',
    secretAccessKey: process.env.S3_SECRET_ACCESS_KEY || 'evolution-secret',
    bucket: process.env.S3_BUCKET || 'evolution',
  };
}

/** Search attributes registered on the dev server, used to find workflows in the UI/CLI. */
export const SEARCH_ATTRIBUTES: Readonly<Record<string, 'Keyword'>> = Object.fromEntries(Object.values(SEARCH_ATTRIBUTE_NAMES).map((name) => [name, 'Keyword']));

export interface ServiceDefinition {
  name: ServiceName;
  /** `previousPorts`: where the service ran before; reused when still free. */
  start(log: (line: string) => void, previousPorts?: Record<string, number>): Promise<ServiceState>;
  healthy(state: ServiceState): Promise<boolean>;
}

const temporal: ServiceDefinition = {
  name: 'temporal',
  async start(log, previousPorts) {
    const bin = ensureBinary('temporal', log);
    const { grpc: port, ui: uiPort, http: httpPort, metrics: metricsPort } = await reusePortsOrFresh(['grpc', 'ui', 'http', 'metrics'], previousPorts);
    const dataDir = join(stateDir(), 'temporal');
    mkdirSync(dataDir, { recursive: true });
    const logFile = join(stateDir(), 'logs', 'temporal.log');
    const args = [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--http-port',
      String(httpPort),
      '--metrics-port',
      String(metricsPort),
      '--db-filename',
      join(dataDir, 'temporal.sqlite'),
      '--log-level',
      'warn',
      '--ui-disable-news-fetch',
      ...Object.entries(SEARCH_ATTRIBUTES).flatMap(([k, v]) => ['--search-attribute', `${k}=${v}`]),
    ];
    const pid = startDetached(bin, args, { logFile });
    const state: ServiceState = {
      name: 'temporal',
      pid,
      ports: { grpc: port, ui: uiPort, http: httpPort, metrics: metricsPort },
      endpoint: `127.0.0.1:${port}`,
      logFile,
      dataDir,
      startedAt: new Date().toISOString(),
      extra: { ui: `http://127.0.0.1:${uiPort}` },
    };
    await waitUntil('Temporal dev server', () => this.healthy(state), 90_000, pid);
    return state;
  },
  async healthy(state) {
    const bin = ensureBinary('temporal');
    const { stdout } = await run(bin, ['operator', 'cluster', 'health', '--address', state.endpoint], { timeout: 10_000 });
    return /SERVING/.test(stdout);
  },
};

/** The object the S3 health check writes and reads back (outside every key the store uses). */
const HEALTH_PROBE_KEY = 'infra-health/probe';

const s3: ServiceDefinition = {
  name: 's3',
  async start(log, previousPorts) {
    const bin = ensureBinary('weed', log);
    const names = ['s3', 's3Grpc', 'master', 'masterGrpc', 'volume', 'volumeGrpc', 'filer', 'filerGrpc', 'iceberg', 'lance', 'admin', 'adminGrpc'];
    const ports = await reusePortsOrFresh(names, previousPorts);
    const dataDir = join(stateDir(), 's3');
    mkdirSync(dataDir, { recursive: true });
    const { identities, iam } = writeLocalS3Auth(dataDir, localS3Settings());
    const logFile = join(stateDir(), 'logs', 's3.log');
    const args = [
      'mini',
      `-dir=${dataDir}`,
      '-ip=127.0.0.1',
      '-ip.bind=127.0.0.1',
      `-s3.port=${ports.s3}`,
      `-s3.port.grpc=${ports.s3Grpc}`,
      `-s3.port.iceberg=${ports.iceberg}`,
      `-s3.port.lance=${ports.lance}`,
      `-master.port=${ports.master}`,
      `-master.port.grpc=${ports.masterGrpc}`,
      `-volume.port=${ports.volume}`,
      `-volume.port.grpc=${ports.volumeGrpc}`,
      `-filer.port=${ports.filer}`,
      `-filer.port.grpc=${ports.filerGrpc}`,
      `-admin.port=${ports.admin}`,
      `-admin.port.grpc=${ports.adminGrpc}`,
      '-admin.ui=false',
      '-webdav=false',
      `-s3.config=${identities}`,
      `-s3.iam.config=${iam}`,
    ];
    const pid = startDetached(bin, args, { logFile, cwd: dataDir });
    const state: ServiceState = {
      name: 's3',
      pid,
      ports,
      endpoint: `http://127.0.0.1:${ports.s3}`,
      logFile,
      dataDir,
      startedAt: new Date().toISOString(),
    };
    await waitUntil('S3 server (SeaweedFS)', () => this.healthy(state), 90_000, pid);
    return state;
  },
  async healthy(state) {
    // A server started from older code lacks identities or the STS the tests use: restarted.
    if (!localS3AuthCurrent(state.dataDir, localS3Settings())) return false;
    return s3StoresObjects(state.endpoint);
  },
};

/**
 * Up means objects can be stored and read back: after a restart the gateway answers bucket
 * requests before the volume server has registered with the master. Shared with the cluster.
 */
export async function s3StoresObjects(endpoint: string): Promise<boolean> {
  const { accessKeyId, secretAccessKey, bucket } = localS3Settings();
  const client = createS3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, bucket, accessKeyId, secretAccessKey }, { maxAttempts: 1 });
  try {
    await client.createBucket(bucket);
    const body = String(process.pid);
    await client.putObject(bucket, HEALTH_PROBE_KEY, body, { contentType: 'text/plain' });
    const got = await client.getObject(bucket, HEALTH_PROBE_KEY);
    return !got.notModified && Buffer.from(got.body).toString('utf8') === body;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** Fingerprint of the model server's sources: a running server from older code is restarted. */
function modelServerBuild(): string {
  const dir = join(REPO_ROOT, 'infra', 'model-server');
  const hash = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .sort())
    hash.update(f).update(readFileSync(join(dir, f)));
  return hash.digest('hex').slice(0, 16);
}

const model: ServiceDefinition = {
  name: 'model',
  async start(_log, previousPorts) {
    const { http: port } = await reusePortsOrFresh(['http'], previousPorts);
    const logFile = join(stateDir(), 'logs', 'model-server.log');
    const tsx = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    if (!existsSync(tsx)) throw new Error('node_modules is missing: run npm ci first');
    const pid = startDetached(process.execPath, [tsx, join(REPO_ROOT, 'infra', 'model-server', 'main.ts'), '--host', '127.0.0.1', '--port', String(port)], {
      logFile,
      cwd: REPO_ROOT,
      env: { ...process.env, MODEL_SERVER_BUILD: modelServerBuild() },
    });
    const state: ServiceState = { name: 'model', pid, ports: { http: port }, endpoint: `http://127.0.0.1:${port}/v1`, logFile, startedAt: new Date().toISOString() };
    await waitUntil('local model server', () => this.healthy(state), 60_000, pid);
    return state;
  },
  async healthy(state) {
    const res = await fetch(`http://127.0.0.1:${state.ports.http}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok && ((await res.json()) as { build?: string }).build === modelServerBuild();
  },
};

export const SERVICES: Record<ServiceName, ServiceDefinition> = { s3, temporal, model };
export const SERVICE_ORDER: ServiceName[] = ['s3', 'temporal', 'model'];

/**
 * The end of a service's log: its last `lines` lines or, when the log ends in a Go crash
 * (`panic:` / `fatal error:`), the crash from its first line (where the reason is), up to
 * `lines` lines of it.
 */
export function logTail(file: string, lines = 20): string {
  let all: string[];
  try {
    all = readFileSync(file, 'utf8').split('\n');
  } catch {
    return '';
  }
  let crashAt = -1;
  for (let i = all.length - 1; i >= 0 && crashAt < 0; i--) if (/^(panic: |fatal error: )/.test(all[i]!)) crashAt = i;
  return (crashAt >= 0 ? all.slice(crashAt, crashAt + lines) : all.slice(-lines)).join('\n');
}
