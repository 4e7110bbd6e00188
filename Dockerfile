# One image for every deployable: the services, the worker and the gateway (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production TURBO_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/platform/package.json packages/platform/
COPY tools/devstack/package.json tools/devstack/
COPY services/identity/package.json services/identity/
COPY services/recruiting/package.json services/recruiting/
COPY services/integrations/package.json services/integrations/
COPY gateway/package.json gateway/
COPY workflows/package.json workflows/
COPY apps/console/package.json apps/console/
RUN npm ci --no-audit --no-fund
COPY . .
USER node
# Each container picks its process with `command:`; the gateway is the default.
CMD ["node", "--import", "tsx", "gateway/src/index.ts"]
