#!/usr/bin/env bash
# Prepares a checkout to run, then runs the command given after `--` (the npm scripts' entry):
#   bash scripts/ensure-deps.sh [--build] [-- COMMAND ARGS…]
# 1. Node: the LTS the product targets (runtime/node-lts.js). When this machine's node is older,
#    the LTS is fetched once from the npm registry into the binaries cache and put first on
#    PATH, so npm ci, the build and COMMAND (and every `node` they start) run on it.
# 2. The locked npm dependencies, when missing or older than the lock file. npm 11 blocks
#    install scripts; none of ours needs one (esbuild and @swc/core ship their platform
#    binaries as optional packages), so nothing is allowed beyond the default.
# 3. With --build: dist/ (CLI, worker, prebuilt workflow bundle) when missing or older than
#    the sources; a failed build is reported and the caller runs the TypeScript sources.
set -euo pipefail
cd "$(dirname "$0")/.."
build=0
if [ "${1:-}" = "--build" ]; then
  build=1
  shift
fi
node_dir="$(node runtime/node-lts.js --bin-dir)"
if [ -n "$node_dir" ]; then export PATH="$node_dir:$PATH"; fi
marker=node_modules/.package-lock.json
if [ -L node_modules ]; then
  # A worktree sharing another checkout's node_modules: npm ci would empty the shared
  # folder through the link (a fresh checkout's lock file is always "newer"), breaking it.
  [ -f "$marker" ] || echo "[deps] node_modules links to $(readlink node_modules), which has no install: run npm ci there" >&2
elif [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
  echo "[deps] installing locked dependencies (npm ci) …" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
if [ "$build" = 1 ]; then
  node runtime/build-state.js || echo "[build] continuing without a current dist/" >&2
fi
if [ "${1:-}" = "--" ]; then
  shift
  exec "$@"
fi
