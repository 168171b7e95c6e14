// The one entry point: configuration → platform (database, services, API) → HTTP (API + web).
// `tsx server.ts --dev` serves the web through Vite with hot reload; otherwise the built app.
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { matchRoutes, type ServerBuild } from "react-router";
import { API_PREFIX } from "./server/api/index.ts";
import { ConfigError, loadConfig, type Config } from "./server/config.ts";
import { HEADERS_TIMEOUT_MS, limitBodies, REQUEST_TIMEOUT_MS } from "./server/http/body-limit.ts";
import { BadRequestTarget, clientIp, pathOf, sendResponse, toRequest } from "./server/http/http.ts";
import { healthz } from "./server/http/healthz.ts";
import { metricsEndpoint, requestScope, webRouteLabels } from "./server/metrics.ts";
import { staticFiles } from "./server/http/static-files.ts";
import { webHandler } from "./server/http/web-handler.ts";
import { createPageCache } from "./server/http/page-cache.ts";
import { cspNonceOf, securityHeaders } from "./server/http/security-headers.ts";
import { createGateway, MESSAGES } from "./server/gateway/gateway.ts";
import { attachLiveChannel } from "./server/http/live.ts";
import { loadOrCreateHostKey } from "./server/gateway/hostkey.ts";
import { attachBrowserTerminal, type BrowserTerminal } from "./server/terminal/index.ts";
import { createPlatform } from "./server/platform.ts";
import { installProcessGuard } from "./server/process-guard.ts";
import { createUpgradeDispatcher } from "./server/http/upgrades.ts";

type LoadContextFactory = (deps: unknown, clientIp: string, cspNonce?: string) => unknown;

/** `buildDir`: the web build to serve (default build/ beside this file; bench/http.ts serves a copy). */
export async function startServer(config: Config, opts: { dev?: boolean; web?: boolean; buildDir?: string } = {}) {
  const platform = await createPlatform(config);
  const { log, api } = platform;
  const app = express();
  app.disable("x-powered-by");
  // Behind a TLS proxy the request URL must carry https, or React Router's origin check on
  // form posts would see http://host against Origin https://host and refuse every post.
  app.set("trust proxy", config.trustProxy);

  // First: each request's id (X-Request-Id, carried into every log line it causes) and its
  // duration under its route pattern for /metrics (server/metrics.ts). The web's patterns are
  // known once its build is loaded.
  let webRoute: (path: string) => string | undefined = () => undefined;
  const ownRoutes = new Set(["/metrics", "/healthz"]);
  app.use(requestScope(platform.metrics, (path) => (ownRoutes.has(path) ? path : webRoute(path)), log));

  // Security headers (CSP with a per-request nonce, HSTS over https), then the body cap, in
  // front of everything: the API and the web alike (server/http/security-headers.ts, body-limit.ts).
  app.use(securityHeaders({ publicUrl: config.publicUrl, csp: !opts.dev }));
  app.use(limitBodies({ isApi: (path) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path.startsWith(`${API_PREFIX}?`) }));

  // ROLE (README, "Several replicas"): this process serves only its roles' parts.
  const roles = new Set(config.roles);
  if (roles.has("api"))
    app.use(API_PREFIX, async (req, res) => {
      try {
        const request = toRequest(req, config.publicUrl.origin, req.originalUrl);
        await sendResponse(res, await api.handle(request, { clientIp: clientIp(req, config.trustProxy) }, { labelsRequest: true }));
      } catch (e) {
        if (e instanceof BadRequestTarget) {
          if (!res.headersSent) res.status(400).json({ detail: "Bad request" });
          return;
        }
        log.error("API transport error", e);
        if (!res.headersSent) res.status(500).json({ detail: "Internal server error" });
      }
    });

  app.get("/healthz", healthz(platform.health));
  // Prometheus metrics (server/metrics.ts): METRICS_TOKEN as a bearer token. In production without
  // a token, nowhere on this port: a reverse proxy on this host that adds no
  // X-Forwarded-For (nginx's default) would make every visitor look local. METRICS_PORT serves
  // them on 127.0.0.1 instead (below).
  const metricsAccess = { token: config.metricsToken, clientIp: (req: IncomingMessage) => clientIp(req, config.trustProxy) };
  app.get("/metrics", metricsEndpoint(platform.metrics, { ...metricsAccess, withoutToken: config.env === "production" ? "none" : "loopback" }));

  // Cross-site form posts are refused for the whole web, here, once. React Router's own Origin
  // check covers actions of pages but not resource routes (/logout, /theme), which took any
  // site's posts. Same rule as React Router's: a request's Origin, when sent, must be its own.
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const origin = req.get("origin");
    if (origin === undefined || sameOrigin(origin, `${req.protocol}://${req.host}`)) return next();
    res.status(403).type("text/plain").send("Cross-site form posts are not accepted.");
  });

  const webDeps = {
    dispatch: api.handle,
    webSessions: platform.webSessions,
    publicUrl: config.publicUrl,
    secureCookies: config.secureCookies,
    discordUrl: config.discordUrl,
  };
  const loadContext = (build: ServerBuild) => (req: express.Request, res: express.Response) =>
    (build.entry.module as unknown as { createLoadContext: LoadContextFactory }).createLoadContext(
      webDeps,
      clientIp(req, config.trustProxy),
      cspNonceOf(res),
    ) as never;

  if (opts.web === false || !roles.has("web")) {
    // API-only (ROLE without web, tests of the runtime and bench/): no web build needed.
  } else if (opts.dev) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(viteServer.middlewares);
    app.use(async (req, res, next) => {
      try {
        const build = (await viteServer.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
        return createRequestHandler({ build, getLoadContext: loadContext(build) })(req, res, next);
      } catch (e) {
        if (e instanceof Error) viteServer.ssrFixStacktrace(e);
        next(e);
      }
    });
  } else {
    const buildDir = opts.buildDir ?? fileURLToPath(new URL("./build", import.meta.url));
    const buildFile = pathToFileURL(join(buildDir, "server/index.js"));
    if (!existsSync(buildFile)) throw new ConfigError("No web build found: run `npm run build` first (or `npm run up`).");
    const build = (await import(buildFile.href)) as ServerBuild;
    webRoute = webRouteLabels(build.routes, (routes, path) => matchRoutes(routes as never, path) as never);
    // Static files from memory, compressed once (server/http/static-files.ts); pages streamed and
    // compressed per request (server/http/web-handler.ts).
    app.use(staticFiles(join(buildDir, "client")));
    // Visitors' pages kept whole while nothing they show has changed (server/http/page-cache.ts).
    const pageCache = createPageCache();
    platform.metrics.setPageCache(pageCache.stats);
    for (const event of ["public-cache", "settings"]) platform.cluster.on(event, () => pageCache.invalidate());
    const pages = { cache: pageCache, version: async () => `${await platform.publicCache.version()} ${JSON.stringify(platform.notice())}` };
    app.use(webHandler(build, loadContext(build) as never, { pages, nonceOf: (res) => cspNonceOf(res as express.Response) }));
  }

  const server: Server = createServer(app);
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // Every upgrade (and CONNECT) is answered by one listener, before the first can arrive
  // (server/http/upgrades.ts): the live channel and the terminal take theirs from it by path.
  const upgrades = createUpgradeDispatcher(server, { log, trustProxy: config.trustProxy });
  await listen(server, config.port, config.host);
  // Once listening, a failed accept (out of file descriptors) is an 'error' event: logged, and
  // the server keeps listening, where an unheard one would end the process.
  server.on("error", (e) => log.error(`http: ${e.message}`));
  const metricsServer =
    config.metricsPort === undefined ? null : createServer(metricsOnly(metricsEndpoint(platform.metrics, { ...metricsAccess, withoutToken: "all" })));
  if (metricsServer) {
    await listen(metricsServer, config.metricsPort!, "127.0.0.1");
    metricsServer.on("error", (e) => log.error(`metrics listener: ${e.message}`));
    const a = metricsServer.address();
    log.info(`metrics on http://127.0.0.1:${typeof a === "object" && a ? a.port : config.metricsPort}/metrics (this host only)`);
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info(`faultline listening on http://${config.host}:${port} (public URL ${config.publicUrl.origin}, ${config.database.kind})`);
  // The live channel serves the pages' scripts and API clients alike: with either role.
  const live =
    roles.has("web") || roles.has("api")
      ? attachLiveChannel(upgrades, {
          deployments: platform.deployments,
          tokens: platform.tokens,
          webSessions: platform.webSessions,
          sessionsEndedElsewhere: (listener) => platform.cluster.on("session-ended", (e) => listener(e as never)),
          publicOrigin: config.publicUrl.origin,
          log,
        })
      : null;

  // The SSH gateway and the deployments worker need the engine; without one (RUNTIME=none) the
  // site still runs and starting a challenge answers 503.
  let gateway: ReturnType<typeof createGateway> | null = null;
  let sshPort: number | null = null;
  let terminal: BrowserTerminal | null = null;
  if (platform.runtime && roles.has("ssh")) {
    gateway = createGateway({
      port: config.ssh.port,
      host: config.host,
      hostKeyPath: join(config.dataDir, "ssh_host_ed25519_key"),
      runtime: platform.runtime,
      resolve: platform.deployments.resolve,
      log,
      // Every shell and command is recorded (server/core/recordings/recorder.ts) for replay and compare.
      recorder: platform.recorder,
    });
    sshPort = await gateway.listen();
    platform.health.gatewayListening({ host: config.host, port: sshPort });
    platform.deployments.advertiseSsh({
      host: config.ssh.host,
      port: sshPort,
      hostKeyFingerprint: gateway.hostKeyFingerprint,
      hostPublicKey: gateway.hostPublicKey,
    });
    const g = gateway;
    platform.metrics.setGatewayConnections(() => g.stats().connections);
    // The browser terminal (/ws/terminal/{id}): the same exec path, recording and messages.
    const t = (terminal = attachBrowserTerminal(upgrades, {
      runtime: platform.runtime,
      recorder: platform.recorder,
      deployments: platform.deployments,
      webSessions: platform.webSessions,
      sessionsEndedElsewhere: (listener) => platform.cluster.on("session-ended", (e) => listener(e as never)),
      publicOrigin: config.publicUrl.origin,
      trustProxy: config.trustProxy,
      log,
    }));
    platform.deployments.onEnded((id) => {
      g.closeDeployment(id);
      t.closeDeployment(id, MESSAGES.ended);
    });
    platform.deployments.onReset((id) => {
      g.closeDeployment(id, MESSAGES.reset);
      t.closeDeployment(id, MESSAGES.reset);
    });
    // A password or SSH key changed, here or on another replica: what the old ones let in goes.
    const closeOwner = (e: unknown) => {
      const userId = (e as { userId?: unknown } | null)?.userId;
      if (typeof userId === "string") g.closeOwner(userId);
    };
    platform.credentials.on(closeOwner);
    platform.cluster.on("credentials-changed", closeOwner);
  } else if (platform.runtime) {
    // Another replica runs the gateway: tell users its host key when this one can read it (the
    // same DATA_DIR volume, or the key file given to every replica).
    const keyFile = join(config.dataDir, "ssh_host_ed25519_key");
    const key = existsSync(keyFile) ? loadOrCreateHostKey(keyFile) : null;
    platform.deployments.advertiseSsh({ host: config.ssh.host, port: config.ssh.port, hostKeyFingerprint: key?.fingerprint, hostPublicKey: key?.publicKey });
  }
  if (platform.runtime) await platform.runtime.ping().catch((e) => log.warn(`${(e as Error).message} Deployments will fail until it answers.`));
  if (platform.runtime && roles.has("worker")) await platform.startWorker();
  log.info(
    `replica ${platform.cluster.replicaId}: roles ${[...roles].join(",")}${platform.cluster.shared ? ", sharing the database with other replicas" : ""}`,
  );

  return {
    platform,
    port,
    sshPort,
    gateway,
    async close() {
      live?.close();
      terminal?.close(MESSAGES.gatewayClosing);
      await gateway?.close();
      upgrades.close();
      metricsServer?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await platform.close();
    },
  };
}

/** Listens, or rejects with the listener's error (a port in use). */
function listen(server: Server, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The METRICS_PORT listener: GET /metrics, nothing else. */
function metricsOnly(serve: ReturnType<typeof metricsEndpoint>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && pathOf(req.url) === "/metrics") return void serve(req, res);
    res.statusCode = 404;
    res.end();
  };
}

function sameOrigin(origin: string, own: string): boolean {
  try {
    return new URL(origin).origin === new URL(own).origin;
  } catch {
    return false; // "null" (sandboxed or opaque origins) and garbage
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"));
if (isMain) {
  try {
    const config = loadConfig();
    const running = await startServer(config, { dev: process.argv.includes("--dev") });
    // Closed once, whatever asks first: a signal (Ctrl-C under scripts/up.sh sends two) or the
    // process guard after an error nobody caught (docs/decisions/015-unexpected-errors.md).
    let closing: Promise<void> | null = null;
    const close = () => (closing ??= running.close());
    const stop = () =>
      close().then(
        () => process.exit(0),
        (e) => {
          running.platform.log.error("stopping failed", e);
          process.exit(1);
        },
      );
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void stop());
    installProcessGuard({ log: running.platform.log, metrics: running.platform.metrics, shutdown: close });
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}
