# Worker image: the TypeScript sources run through tsx (no separate build step).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV EVOLUTION_IGNORE_LOCAL_INFRA=1
CMD ["npx", "evolution", "worker"]
