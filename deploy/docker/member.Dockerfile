# syntax=docker/dockerfile:1
# The kvstore member image: `kvstore` (the server, the entry point) and `kvstorectl`.
#   docker build -f deploy/docker/member.Dockerfile --build-arg KVSTORE_SERVER_VERSION=3.4.0 -t kvstore/kvstore:3.4.0 .
# KVSTORE_SERVER_VERSION picks the release line the member presents (3.2.x, 3.3.x, 3.4.x, 3.5.x).
# The data directory is /var/lib/kvstore (KVSTORE_DATA_DIR); mount a volume there. Runs as uid 1000.
# Note: from 3.4 on a KVSTORE_* variable that is also given as a flag is an error, so configure
# the data directory through KVSTORE_DATA_DIR, not --data-dir.

ARG NODE_VERSION=26

# ---- build: all dependencies, TypeScript → dist/ (proto/gen is committed; no protoc needed)
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY proto ./proto
COPY server ./server
COPY ctl ./ctl
RUN npm run build

# ---- runtime: production dependencies only, the compiled member and CLI
FROM node:${NODE_VERSION}-slim AS runtime
ARG KVSTORE_SERVER_VERSION=3.5.0
LABEL org.opencontainers.image.title="kvstore" \
      org.opencontainers.image.description="Raft-replicated key-value store speaking the etcd v3 API" \
      org.opencontainers.image.licenses="Apache-2.0" \
      io.kvstore.server-version="${KVSTORE_SERVER_VERSION}"
ENV NODE_ENV=production \
    KVSTORE_SERVER_VERSION=${KVSTORE_SERVER_VERSION} \
    KVSTORE_DATA_DIR=/var/lib/kvstore
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
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
ENTRYPOINT ["kvstore"]
