#!/usr/bin/env bash
# Installs the locked npm dependencies when they are missing or older than the lock file.
# npm 11 blocks install scripts; none of ours needs one (esbuild and @swc/core ship their
# platform binaries as optional packages), so nothing is allowed beyond the default.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=node_modules/.package-lock.json
if [ -L node_modules ]; then
  # A worktree sharing another checkout's node_modules: npm ci would empty the shared
  # folder through the link (a fresh checkout's lock file is always "newer"), breaking it.
  [ -f "$marker" ] || echo "[deps] node_modules links to $(readlink node_modules), which has no install: run npm ci there" >&2
elif [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
  echo "[deps] installing locked dependencies (npm ci) …" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
# With --build: also compile dist/ (CLI, worker, prebuilt workflow bundle) when it is
# missing or older than the sources; a failed build is reported and the caller runs
# the TypeScript sources instead.
if [ "${1:-}" = "--build" ]; then
  node runtime/build-state.js || echo "[build] continuing without a current dist/" >&2
fi
