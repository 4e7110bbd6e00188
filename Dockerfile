# One image for every deployable (services, worker, gateway; see docker-compose.yml), in two stages.

# Build: every dependency, `npm run build` (each deployable bundled into dist/, the workflow code
# prebundled), then the runtime tree assembled by tools/build (manifests, lockfile, dist/, static files).
FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY packages/ai/package.json packages/ai/
COPY packages/contracts/package.json packages/contracts/
COPY packages/platform/package.json packages/platform/
COPY tools/build/package.json tools/build/
COPY tools/devstack/package.json tools/devstack/
COPY services/identity/package.json services/identity/
COPY services/recruiting/package.json services/recruiting/
COPY services/integrations/package.json services/integrations/
COPY gateway/package.json gateway/
COPY workflows/package.json workflows/
COPY apps/console/package.json apps/console/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node --import tsx tools/build/src/runtime-tree.ts /runtime

# Runtime: production dependencies only (no tsx, no TypeScript sources, no devstack), non-root.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /runtime/ ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
USER node
# Every process answers /readyz on its own port: HEALTH_PORT (compose sets it per process).
ENV HEALTH_PORT=3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.HEALTH_PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Each container picks its process with `command:`; the gateway is the default.
CMD ["node", "--enable-source-maps", "gateway/dist/index.js"]
