# syntax=docker/dockerfile:1
# The kvstore member image: `kvstore` (the server, the entry point) and `kvstorectl`.
#   docker build -f deploy/docker/member.Dockerfile --build-arg KVSTORE_SERVER_VERSION=3.4.0 -t kvstore/kvstore:3.4.0 .
# or `npm run images` (scripts/images.mjs), which builds both images with podman or docker.
# KVSTORE_SERVER_VERSION picks the release line the member presents (3.2.x, 3.3.x, 3.4.x, 3.5.x).
# The data directory is /var/lib/kvstore (KVSTORE_DATA_DIR); mount a volume there. Runs as uid 1000.
# Note: from 3.4 on a KVSTORE_* variable that is also given as a flag is an error, so configure
# the data directory through KVSTORE_DATA_DIR, not --data-dir.
#
# BASE_IMAGE: the Node image every stage starts from (default the official node:<NODE_VERSION>-slim;
# scripts/images.mjs passes a locally made one where no container registry is reachable).
# npm settings (registry, CA bundle) come in as build secrets, never as a layer:
#   --secret id=npmrc,src=<an npmrc>  --secret id=npm_ca,src=<a CA bundle the npmrc names as
#   cafile=/run/secrets/npm_ca>. Both are optional. Only the build and deps stages use the network.

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
RUN npm run build

# ---- deps: production dependencies only, without the packages the member never imports
# (the operator's Kubernetes client and S3 backup store, its schema library, the unused `level`
# wrapper; test/deploy/dockerfiles.test.ts checks none of them is in the member's import closure).
FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --omit=dev --no-audit --no-fund \
 && npm pkg delete dependencies.@kubernetes/client-node dependencies.@aws-sdk/client-s3 dependencies.typebox dependencies.level \
 && npm prune --omit=dev --offline --no-audit --no-fund

# ---- runtime: no network; the pruned production dependencies, the compiled member and CLI
FROM ${BASE_IMAGE} AS runtime
ARG KVSTORE_SERVER_VERSION=3.5.0
LABEL org.opencontainers.image.title="kvstore" \
      org.opencontainers.image.description="Raft-replicated key-value store speaking the etcd v3 API" \
      org.opencontainers.image.licenses="Apache-2.0" \
      io.kvstore.server-version="${KVSTORE_SERVER_VERSION}"
ENV NODE_ENV=production \
    KVSTORE_SERVER_VERSION=${KVSTORE_SERVER_VERSION} \
    KVSTORE_DATA_DIR=/var/lib/kvstore
WORKDIR /app
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/proto ./dist/proto
COPY --from=build /src/dist/server ./dist/server
COPY --from=build /src/dist/ctl ./dist/ctl
RUN chmod 0755 dist/server/main.js dist/ctl/main.js \
 && ln -s /app/dist/server/main.js /usr/local/bin/kvstore \
 && ln -s /app/dist/ctl/main.js /usr/local/bin/kvstorectl \
 && mkdir -p /var/lib/kvstore \
 && chown 1000:1000 /var/lib/kvstore \
 && chmod 0700 /var/lib/kvstore
USER 1000:1000
VOLUME ["/var/lib/kvstore"]
EXPOSE 2379 2380
# The pods' readiness probe: GET /health on the client port. HEALTHCHECK_URL overrides the address
# (a member on another port or a loopback address with --network host); plain http only — a member
# with client TLS needs its own check. Docker-format images only (`podman build --format docker`).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HEALTHCHECK_URL || 'http://127.0.0.1:2379/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["kvstore"]
