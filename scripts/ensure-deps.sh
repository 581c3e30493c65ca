#!/usr/bin/env bash
# Installs the locked npm dependencies when they are missing or older than the lock file.
# npm 11 blocks install scripts; none of ours needs one (esbuild and @swc/core ship their
# platform binaries as optional packages), so nothing is allowed beyond the default.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=node_modules/.package-lock.json
if [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
  echo "[deps] installing locked dependencies (npm ci) …" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
