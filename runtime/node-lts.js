// The Node.js release the product runs on: the current LTS (package.json "engines", the
// Dockerfile's base image and @types/node follow it; test/unit/node-lts.test.ts checks they agree).
//
// On a machine whose own node is older, ensureNodeLts() fetches the official build of this
// release from the npm registry (package node-linux-<arch>, which carries bin/node) into the
// shared binaries cache, once per machine; scripts/ensure-deps.sh and bin/evolution.js then run
// under it. Plain CommonJS without dependencies: it runs before `npm ci`.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } = require('node:fs');
const { homedir } = require('node:os');
const { join, resolve } = require('node:path');

const NODE_LTS = '26.12.1';

/** The binaries cache, by the rule of infra/paths.ts cacheDir (which this plain-JS bootstrap cannot import; test/unit/node-lts.test.ts holds them equal). */
function cacheDir() {
  return resolve(process.env.EVOLUTION_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skill-evolution'));
}

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

/** Whether this process already runs on the LTS line or a newer one. */
function runningNodeIsCurrent() {
  return major(process.versions.node) >= major(NODE_LTS);
}

function packageName() {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(
      `Node ${process.versions.node} is older than the supported ${NODE_LTS}, and no build of it is fetched for ${process.platform}-${process.arch}: install Node ${NODE_LTS}`,
    );
  }
  return `node-linux-${process.arch}`;
}

/** Where the fetched LTS lives: <cache>/bin/node-linux-<arch>-<version>/bin/node. */
function ltsNodePath() {
  return join(cacheDir(), 'bin', `${packageName()}-${NODE_LTS}`, 'bin', 'node');
}

/**
 * The node binary to run the product with: this process's own when it is current, else the
 * cached LTS, fetched first when absent (`npm pack` checks the registry's integrity hash).
 * Concurrent callers each unpack into their own temporary folder; the first rename wins.
 */
function ensureNodeLts(log = (line) => process.stderr.write(`${line}\n`)) {
  if (runningNodeIsCurrent()) return process.execPath;
  const target = ltsNodePath();
  if (existsSync(target)) return target;
  const dir = join(target, '..', '..');
  const pkg = `${packageName()}@${NODE_LTS}`;
  log(`[node] Node ${process.versions.node} is older than the supported LTS ${NODE_LTS}: fetching ${pkg} from the npm registry (one-time, cached in ${dir}) …`);
  mkdirSync(join(cacheDir(), 'bin'), { recursive: true });
  const tmp = mkdtempSync(join(cacheDir(), 'bin', '.node-'));
  try {
    execFileSync('npm', ['pack', pkg, '--pack-destination', tmp, '--silent', '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${pkg} produced no tarball`);
    mkdirSync(join(tmp, 'unpacked'));
    execFileSync('tar', ['-xzf', join(tmp, tarball), '-C', join(tmp, 'unpacked'), '--strip-components=1', 'package/bin/node', 'package/LICENSE']);
    const version = spawnSync(join(tmp, 'unpacked', 'bin', 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (version !== `v${NODE_LTS}`) throw new Error(`${pkg} holds node ${version || '(does not run)'}, not v${NODE_LTS}`);
    try {
      renameSync(join(tmp, 'unpacked'), dir);
    } catch (e) {
      if (!existsSync(target)) throw e; // another process installed it meanwhile
    }
    log(`[node] Node ${NODE_LTS} installed at ${target}`);
    return target;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs this script again under the LTS when the running node is older, forwarding the
 * arguments, the termination signals (a worker drains on SIGTERM) and the exit status.
 * Returns false when the running node is current (the caller goes on).
 */
function reexecUnderLts(script, args) {
  if (runningNodeIsCurrent()) return false;
  const { spawn } = require('node:child_process');
  const child = spawn(ensureNodeLts(), [script, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
  return true;
}

module.exports = { NODE_LTS, cacheDir, runningNodeIsCurrent, ltsNodePath, ensureNodeLts, reexecUnderLts };

// `node runtime/node-lts.js --bin-dir`: the folder to put first on PATH (ensure-deps.sh), empty
// when the running node is current.
if (require.main === module) {
  if (process.argv[2] !== '--bin-dir') {
    process.stderr.write('usage: node runtime/node-lts.js --bin-dir\n');
    process.exit(2);
  }
  process.stdout.write(runningNodeIsCurrent() ? '' : join(ensureNodeLts(), '..'));
}
