# syntax=docker/dockerfile:1
# The operator image: `kvstore-operator` (entry point; `run` in a cluster, `local -f <file>` without one).
#   docker build -f deploy/docker/operator.Dockerfile -t kvstore/kvstore-operator:0.1.0 .
# or `npm run images` (scripts/images.mjs), which builds both images with podman or docker.
# Pre-upgrade snapshots go to /var/lib/kvstore-operator/snapshots (mount a volume there).
# The member binaries are included for `kvstore-operator local`. Runs as uid 1000.
#
# BASE_IMAGE and the npm build secrets (npmrc, npm_ca) as in member.Dockerfile; only the build
# and deps stages use the network.

ARG NODE_VERSION=26
ARG BASE_IMAGE=node:${NODE_VERSION}-slim

# ---- build: all dependencies, TypeScript → dist/ (proto/gen is committed; no protoc needed)
FROM ${BASE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY proto ./proto
COPY server ./server
COPY ctl ./ctl
COPY operator ./operator
RUN npm run build

# ---- deps: production dependencies only (the operator needs the Kubernetes client and the S3 store)
FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --omit=dev --no-audit --no-fund

# ---- runtime: no network; production dependencies, the compiled operator (and the member it drives locally)
FROM ${BASE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="kvstore-operator" \
      org.opencontainers.image.description="Kubernetes operator for kvstore clusters: health-gated rolling upgrades" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/proto ./dist/proto
COPY --from=build /src/dist/server ./dist/server
COPY --from=build /src/dist/ctl ./dist/ctl
COPY --from=build /src/dist/operator ./dist/operator
RUN chmod 0755 dist/operator/main.js dist/server/main.js dist/ctl/main.js \
 && ln -s /app/dist/operator/main.js /usr/local/bin/kvstore-operator \
 && ln -s /app/dist/server/main.js /usr/local/bin/kvstore \
 && ln -s /app/dist/ctl/main.js /usr/local/bin/kvstorectl \
 && mkdir -p /var/lib/kvstore-operator/snapshots \
 && chown -R 1000:1000 /var/lib/kvstore-operator
USER 1000:1000
VOLUME ["/var/lib/kvstore-operator/snapshots"]
EXPOSE 8080
# The Deployment's liveness probe: GET /healthz on 8080 (`run` listens there by default; `local`
# only with --metrics-bind-address). HEALTHCHECK_URL overrides the address.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HEALTHCHECK_URL || 'http://127.0.0.1:8080/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["kvstore-operator"]
CMD ["run"]
