# Worker image: compiled once at image build (npm run build: dist/ with the prebuilt
# workflow bundle), so `evolution worker` starts without compiling TypeScript or running
# webpack. Dev tools are pruned after the build.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx scripts/build.ts && npm prune --omit=dev --no-audit --no-fund
ENV EVOLUTION_IGNORE_LOCAL_INFRA=1
CMD ["npx", "evolution", "worker"]
