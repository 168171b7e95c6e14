# faultline as a container: the way operators deploy it (README, "Run it as a container";
# docs/decisions/009-container-image.md says what the container needs from its host and why).
#
# BASE: a Debian 12 based image with Node.js >= 20.19 and npm at /usr/local (the official Node
# image's layout). tests/runtime/container-image.test.ts builds this same file FROM a local image
# (the challenge base plus the build machine's Node), because no image registry is reachable there.
ARG BASE=node:20-bookworm-slim

# ---- dependencies: every npm package, native parts compiled here (better-sqlite3, ssh2)
FROM ${BASE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# node-gyp compiles against the headers of the Node in the image instead of downloading them.
# `npm install`, not `npm ci`: the lock lists only this platform's optional native packages (see
# npm_ensure in scripts/lib.sh), which `npm ci` refuses as out of sync; the versions are the locked ones.
RUN npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" npm install --no-audit --no-fund

# ---- what `npm start` needs at run time: the same tree without devDependencies
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

# ---- the web build (react-router build: build/server and build/client)
FROM deps AS build
COPY . .
RUN npx react-router build

# ---- the runtime image: Node, the server's sources (tsx runs them), the web build, the content
FROM ${BASE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SSH_PORT=2222 \
    DATA_DIR=/data
# A fixed, unprivileged uid: DATA_DIR belongs to it; the Docker socket is reached through the
# socket's group, given at run time (compose.yaml: group_add).
RUN groupadd --system --gid 10001 faultline \
 && useradd --system --uid 10001 --gid faultline --create-home --home-dir /home/faultline --shell /usr/sbin/nologin faultline \
 && mkdir -p /data && chown faultline:faultline /data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json package-lock.json tsconfig.json server.ts ./
COPY server ./server
COPY shared ./shared
COPY challenges ./challenges
VOLUME ["/data"]
USER faultline
EXPOSE 3000 2222
# /healthz answers 200 or 503 for a load balancer; an older build without it is asked
# /api/v1/health instead (404 means "not this path", not "unhealthy").
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const u='http://127.0.0.1:'+(process.env.PORT||3000);const ok=(r)=>process.exit(r.ok?0:1);fetch(u+'/healthz').then((r)=>r.status===404?fetch(u+'/api/v1/health').then(ok):ok(r)).catch(()=>process.exit(1))"]
# What `npm start` runs, without npm in between: Node itself gets SIGTERM (server.ts then closes
# the gateway, the worker and the database).
CMD ["node", "--import", "tsx", "server.ts"]
