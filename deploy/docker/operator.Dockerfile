# syntax=docker/dockerfile:1
# The operator image: `kvstore-operator` (entry point; `run` in a cluster, `local -f <file>` without one).
#   docker build -f deploy/docker/operator.Dockerfile -t kvstore/kvstore-operator:0.1.0 .
# Pre-upgrade snapshots go to /var/lib/kvstore-operator/snapshots (mount a volume there).
# The member binaries are included for `kvstore-operator local`. Runs as uid 1000.

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
COPY operator ./operator
RUN npm run build

# ---- runtime: production dependencies only, the compiled operator (and the member it drives locally)
FROM node:${NODE_VERSION}-slim AS runtime
LABEL org.opencontainers.image.title="kvstore-operator" \
      org.opencontainers.image.description="Kubernetes operator for kvstore clusters: health-gated rolling upgrades" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
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
ENTRYPOINT ["kvstore-operator"]
CMD ["run"]
