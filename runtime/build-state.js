// Is dist/ (the compiled application and the prebuilt workflow bundle) current, and
// building it when it is not. Plain CommonJS without dependencies: bin/evolution.js
// needs it before anything is compiled, and it must answer in a few milliseconds.
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { spawnSync } = require('node:child_process');

function findRoot(from) {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

const ROOT = findRoot(__dirname);
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const FAILED = join(DIST, '.build-failed');
const LOCK = join(DIST, '.build-lock');
/** The prebuilt workflow bundle the worker loads with `workflowBundle: { codePath }`. */
const WORKFLOW_BUNDLE = join(DIST, 'workflow-bundle.js');
/** What the build reads: a change to any of these makes dist/ stale. */
const SOURCE_DIRS = ['core', 'storage', 'activities', 'client', 'workflows', 'runtime', 'workers', 'console', 'cli', 'infra', 'scripts', 'bench/floor'];
const SOURCE_FILES = ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** Below a source directory, what is not a source: a package's own build output, installed modules. */
const NOT_SOURCES = new Set(['dist', 'node_modules']);

/** Modification time of the newest .ts/.js/.json file under `dir`, outside build outputs and installed modules. */
function newestMtime(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!NOT_SOURCES.has(e.name)) newest = Math.max(newest, newestMtime(path));
    } else if (/\.(ts|js|json)$/.test(e.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Modification time of the newest source file the build reads. */
function newestSource() {
  let newest = 0;
  for (const d of SOURCE_DIRS) newest = Math.max(newest, newestMtime(join(ROOT, d)));
  for (const f of SOURCE_FILES) if (existsSync(join(ROOT, f))) newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
  return newest;
}

/** 'fresh', 'missing' or 'stale' (a source changed after the last complete build started). */
function buildStatus() {
  if (!existsSync(STAMP) || !existsSync(WORKFLOW_BUNDLE)) return 'missing';
  return newestSource() > statSync(STAMP).mtimeMs ? 'stale' : 'fresh';
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Builds when dist/ is missing or stale; returns whether dist/ is fresh afterwards.
 * Concurrent callers (parallel CLI calls) wait for the one that builds. A build that
 * failed is not retried until a source changes again (callers fall back to tsx).
 */
function ensureBuild(log = (line) => process.stderr.write(`${line}\n`)) {
  const status = buildStatus();
  if (status === 'fresh') return true;
  const newest = newestSource();
  if (existsSync(FAILED) && Number(readFileSync(FAILED, 'utf8')) === newest) return false;
  // A production install (no dev tools) cannot build: it runs dist/ as shipped when it is
  // complete and there are no sources to run instead (the image's runtime stage).
  if (!existsSync(join(ROOT, 'node_modules', 'typescript'))) return status === 'stale' && !existsSync(join(ROOT, 'cli', 'main.ts'));
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another process is building; a lock older than 10 minutes is left over from a crash.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs > 10 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) return false;
      sleep(250);
      if (buildStatus() === 'fresh') return true;
    }
  }
  try {
    if (buildStatus() === 'fresh') return true;
    log(`[build] dist/ is ${status}: compiling (npm run build) …`);
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const r = spawnSync(process.execPath, [tsx, join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (r.status !== 0) {
      writeFileSync(FAILED, String(newest));
      log('[build] failed; running the TypeScript sources through tsx instead');
      return false;
    }
    rmSync(FAILED, { force: true });
    return buildStatus() === 'fresh';
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

module.exports = { ROOT, DIST, STAMP, WORKFLOW_BUNDLE, buildStatus, ensureBuild, newestMtime, newestSource };

if (require.main === module) process.exit(ensureBuild() ? 0 : 1);
