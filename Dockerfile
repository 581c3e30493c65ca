# One image for every process: main worker (default), evaluator worker, approver console and
# the CLI; the command picks the role (`node bin/evolution.js worker`, `… evaluator-worker`,
# `… console`, `… learn …`). docs/deploy.md shows it in compose and Kubernetes.
#
# Stages: `deps` installs the production dependencies alone (the lock file names the client
# library's workspace, so its package.json comes too) (cached until the lock file
# changes); `build` installs everything and compiles dist/ with the prebuilt workflow bundle
# (npm run build), so no process compiles TypeScript or runs webpack when it starts;
# `runtime` copies only what runs, on the Node.js LTS (runtime/node-lts.js), as a non-root
# user, under tini as PID 1 (signals reach node, which drains on SIGTERM; zombies are reaped).
# test/unit/dockerfile.test.ts checks this file; test/integration/image-build.test.ts runs its
# build steps and starts a worker from the runtime stage's files (no Docker engine needed).

FROM node:26.12.1-trixie-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY client/package.json ./client/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:26.12.1-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY client/package.json ./client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:26.12.1-trixie-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY runtime/build-state.js runtime/node-lts.js ./runtime/
COPY examples ./examples
# Configuration comes from the environment (docs/configuration.md); these are the image's
# defaults: no local-infra lookup, JSON logs, the ops port (/metrics, /healthz, /readyz).
ENV NODE_ENV=production \
  EVOLUTION_IGNORE_LOCAL_INFRA=1 \
  EVOLUTION_LOG_FORMAT=json \
  EVOLUTION_METRICS_PORT=9464
# The image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.EVOLUTION_METRICS_PORT || 9464) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "bin/evolution.js", "worker"]
