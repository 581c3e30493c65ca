import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withDirLockAsync } from '../lock';
import { goEnv } from '../go-env';
import { cacheDir } from '../paths';

/**
 * The Temporal server of the local cluster, built from its Go module at a pinned version
 * with a pinned Go toolchain (the Go command downloads that toolchain from the module
 * proxy). Built once per machine into the binaries cache; the key names both versions.
 */
export const TEMPORAL_SERVER_BUILD = { module: 'go.temporal.io/server', version: 'v1.32.2', goToolchain: 'go1.27.3' } as const;

export interface TemporalServerBinaries {
  /** `temporal-server` (cmd/server): every service, one per process with `start --service`. */
  server: string;
  /** `temporal-sql-tool` (cmd/tools/sql): creates the databases and applies the schema. */
  sqlTool: string;
  /** The module's schema/postgresql/v12 folder (temporal/ and visibility/), copied beside the binaries. */
  postgresSchemaDir: string;
}

export function temporalServerDir(): string {
  const b = TEMPORAL_SERVER_BUILD;
  return join(cacheDir(), 'bin', `temporal-server-${b.version}-${b.goToolchain}`);
}

export function temporalServerBinaries(): TemporalServerBinaries {
  const dir = temporalServerDir();
  return { server: join(dir, 'temporal-server'), sqlTool: join(dir, 'temporal-sql-tool'), postgresSchemaDir: join(dir, 'schema', 'postgresql', 'v12') };
}

/** Whether the cache holds a complete build (the marker is written last). */
export function temporalServerBuilt(): boolean {
  return existsSync(join(temporalServerDir(), 'complete'));
}

/** The Go environment of the build (infra/go-env), with the pinned toolchain and the module's own go.sum as it is. */
const buildEnv = () => goEnv({ toolchain: TEMPORAL_SERVER_BUILD.goToolchain, extraFlags: ['-mod=readonly'] });

/**
 * Returns the server binaries, building them first when the cache has none (about 6 min
 * on 2 cores with empty Go caches). Safe to call from several processes at once.
 */
export async function ensureTemporalServer(log: (line: string) => void = () => {}): Promise<TemporalServerBinaries> {
  if (temporalServerBuilt()) return temporalServerBinaries();
  return withDirLockAsync(join(cacheDir(), 'locks', 'temporal-server'), async () => {
    if (temporalServerBuilt()) return temporalServerBinaries();
    await buildTemporalServer(log);
    return temporalServerBinaries();
  });
}

async function buildTemporalServer(log: (line: string) => void): Promise<void> {
  const b = TEMPORAL_SERVER_BUILD;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  log(`building ${b.module}@${b.version} with ${b.goToolchain} (one-time, cached in ${temporalServerDir()}) …`);
  mkdirSync(join(cacheDir(), 'go'), { recursive: true });
  const env = buildEnv();
  const empty = mkdtempSync(join(cacheDir(), 'tmp-go-'));
  try {
    // Outside any module, `go mod download` fetches the module at exactly this version (and the toolchain first).
    const downloaded = JSON.parse(await runGo(['mod', 'download', '-json', `${b.module}@${b.version}`], { cwd: empty, env })) as { Dir?: string; Error?: string };
    if (!downloaded.Dir) throw new Error(`go mod download ${b.module}@${b.version}: ${downloaded.Error ?? 'no directory'}`);
    const src = downloaded.Dir;
    log(`source of ${b.module}@${b.version} in the module cache (${elapsed()}); resolving its dependencies …`);
    const packages = (await runGo(['list', '-deps', './cmd/server', './cmd/tools/sql'], { cwd: src, env })).split('\n').filter(Boolean).length;
    log(`compiling ${packages} packages (${elapsed()}) …`);
    const out = join(empty, 'out');
    mkdirSync(out);
    let compiled = 0;
    let lastReport = Date.now();
    await runGo(['build', '-v', '-trimpath', '-ldflags=-s -w', '-o', `${out}/`, './cmd/server', './cmd/tools/sql'], {
      cwd: src,
      env,
      onStderrLine: (line) => {
        if (line.startsWith('go: downloading')) return;
        compiled++;
        if (Date.now() - lastReport >= 15_000) {
          lastReport = Date.now();
          log(`  compiled ${compiled}/${packages} packages (${elapsed()})`);
        }
      },
    });
    const dir = temporalServerDir();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'schema', 'postgresql'), { recursive: true });
    renameSync(join(out, 'server'), join(dir, 'temporal-server'));
    renameSync(join(out, 'sql'), join(dir, 'temporal-sql-tool'));
    cpSync(join(src, 'schema', 'postgresql', 'v12'), join(dir, 'schema', 'postgresql', 'v12'), { recursive: true });
    writeFileSync(join(dir, 'complete'), `${b.module}@${b.version} ${b.goToolchain}\n`);
    log(`built temporal-server (${Math.round(statSync(join(dir, 'temporal-server')).size / 1e6)} MB) and temporal-sql-tool in ${elapsed()}`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/** Runs `go`, resolving its stdout; a failure carries the end of its stderr. */
function runGo(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; onStderrLine?: (line: string) => void }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderrTail: string[] = [];
    let partial = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      const lines = (partial + c.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        opts.onStderrLine?.(line);
        stderrTail = [...stderrTail.slice(-29), line];
      }
    });
    child.once('error', (e) => reject(new Error(`cannot run go (${e.message}): the local cluster builds the Temporal server from source and needs a Go command ≥ 1.21 on PATH`)));
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`go ${args.slice(0, 2).join(' ')} failed (exit ${code}):\n${[...stderrTail, partial].join('\n')}`));
    });
  });
}
