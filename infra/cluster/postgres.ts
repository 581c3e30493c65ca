import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installDebianPackages } from '../debian-packages';
import { runToEnd, type RunAs } from './spawn';
import type { ClusterProcessSpec } from './state';

/** The database user the Temporal services and the schema tool connect as (superuser of this local instance). */
export const POSTGRES_USER = { user: 'temporal', password: 'temporal' } as const;

/**
 * The bin folder of Debian's PostgreSQL (/usr/lib/postgresql/N/bin, the newest N),
 * installing the `postgresql` package first when it is absent and we are root.
 */
export async function ensurePostgresInstalled(log: (line: string) => void): Promise<string> {
  const found = findPostgresBin();
  if (found) return found;
  installDebianPackages(['postgresql'], log);
  const bin = findPostgresBin();
  if (!bin) throw new Error('apt-get installed postgresql, but no /usr/lib/postgresql/*/bin/postgres was found');
  return bin;
}

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : undefined;
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` user the Debian package creates. */
export function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, PostgreSQL needs the `postgres` user (created by the postgresql package)');
  }
}

/**
 * Where the data directory goes: `preferred`, unless we are root and the `postgres` user
 * cannot reach it (a checkout inside a private folder, such as a mktemp directory): then a
 * folder of its own under /var/tmp, named after `preferred` so that the same checkout finds
 * it again.
 */
export function postgresDataDir(preferred: string, log: (line: string) => void = () => {}): string {
  const runAs = postgresRunAs();
  if (!runAs) return preferred;
  let reachable = dirname(preferred);
  while (!existsSync(reachable)) reachable = dirname(reachable);
  if (spawnSync('test', ['-x', reachable], { uid: runAs.uid, gid: runAs.gid }).status === 0) return preferred;
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  const dir = join(base, `skill-evolution-postgres-${createHash('sha256').update(preferred).digest('hex').slice(0, 12)}`, 'data');
  log(`the postgres user cannot reach ${reachable}: PostgreSQL's data goes to ${dir}`);
  return dir;
}

/** initdb once: the data directory is kept across `infra down` / `up`. */
export async function initPostgres(opts: { bin: string; dataDir: string; log: (line: string) => void }): Promise<void> {
  if (existsSync(join(opts.dataDir, 'PG_VERSION'))) return;
  const runAs = postgresRunAs();
  mkdirSync(join(opts.dataDir, '..'), { recursive: true, mode: 0o755 });
  mkdirSync(opts.dataDir, { mode: 0o700 });
  const pwFile = join(opts.dataDir, '..', 'postgres-password');
  writeFileSync(pwFile, `${POSTGRES_USER.password}\n`, { mode: 0o600 });
  if (runAs) {
    chownSync(opts.dataDir, runAs.uid, runAs.gid);
    chownSync(pwFile, runAs.uid, runAs.gid);
  }
  opts.log('initdb (PostgreSQL data directory) …');
  await runToEnd(join(opts.bin, 'initdb'), ['-D', opts.dataDir, '-U', POSTGRES_USER.user, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C.UTF-8'], {
    runAs,
    cwd: opts.dataDir,
  });
}

/** The server on 127.0.0.1:port over TCP only (no socket file), room for every Temporal service's connection pool. */
export function postgresSpec(opts: { bin: string; dataDir: string; port: number; logDir: string }): ClusterProcessSpec {
  return {
    name: 'postgres',
    command: join(opts.bin, 'postgres'),
    args: ['-D', opts.dataDir, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    cwd: opts.dataDir,
    logFile: join(opts.logDir, 'postgres.log'),
    runAs: postgresRunAs(),
    ports: { sql: opts.port },
  };
}

export async function postgresReady(bin: string, port: number): Promise<boolean> {
  try {
    await runToEnd(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_USER.user, '-d', 'postgres'], { timeoutMs: 5000 });
    return true;
  } catch {
    return false;
  }
}
