// Wires the platform from its configuration: database, domain services, API. The composition
// root for everything but the transports, so tests can build the same platform server.ts runs.
// Background roles (the deployments worker) are started by `startWorker`, not at creation, so a
// platform built for API tests does not touch the Docker engine.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { createApi } from "./api/index.ts";
import { createAccounts } from "./core/accounts.ts";
import { createCatalogue } from "./core/catalogue.ts";
import { createDeployments } from "./core/deployments/index.ts";
import { createGrading } from "./core/grading.ts";
import { createHealth } from "./core/health.ts";
import { createOAuth } from "./core/oauth.ts";
import { createRateLimiter } from "./core/ratelimit.ts";
import { createScoring } from "./core/scoring.ts";
import { createTokenService } from "./core/tokens.ts";
import { createWebSessions } from "./core/web-sessions.ts";
import { openDatabase } from "./db/index.ts";
import { createLogger } from "./logger.ts";
import { createMailer } from "./mail/mailer.ts";
import { loadLibrary } from "./runtime/challenges.ts";
import { createDockerRuntime } from "./runtime/docker/index.ts";
import { startWorker } from "./worker.ts";

export async function createPlatform(config: Config) {
  const log = createLogger(config.logLevel);
  const db = await openDatabase(config.database);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log, env: config.env });
  const limiter = createRateLimiter();
  const tokens = createTokenService(db, config.sessionSecret);
  const webSessions = createWebSessions({ db, sessionSecret: config.sessionSecret, secureCookies: config.secureCookies });
  const scoring = createScoring({ db });
  const accounts = createAccounts({ db, tokens, mailer, limiter, publicUrl: config.publicUrl, scoring, webSessions });
  const oauth = createOAuth({ db, tokens, accounts, providers: config.oauth, publicUrl: config.publicUrl, limiter });

  // A broken challenge folder is reported and left out; the rest of the library stays in service.
  const { challenges: challengeList, problems } = loadLibrary(config.challengesDir);
  for (const p of problems) log.error(`challenge not loaded: ${p.message}`);
  const challenges = new Map(challengeList.map((c) => [c.id, c]));
  const catalogue = createCatalogue({ db, challenges: challengeList });
  await catalogue.sync();

  // dockerode connects lazily: creating the driver costs nothing when no deployment starts.
  const runtime =
    config.deployments.runtime === "docker"
      ? createDockerRuntime({ log: (m) => log.info(`runtime: ${m}`), warn: (m) => log.error(`runtime: ${m}`), ociRuntime: config.deployments.ociRuntime })
      : null;
  const deployments = createDeployments({
    db,
    runtime,
    challenges,
    log,
    limiter,
    instance: instanceId(config.dataDir),
    ssh: config.ssh,
    durationSeconds: config.deployments.durationSeconds,
    maxLifetimeSeconds: config.deployments.maxLifetimeSeconds,
    maxConcurrentPerUser: config.deployments.maxConcurrentPerUser,
    capacityBytes: config.deployments.capacityBytes,
  });
  const grading = createGrading({ db, runtime, deployments, challenges, scoring, limiter, log });

  let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
  const health = createHealth({
    db,
    runtime,
    images: () => [...challenges.values()].map((c) => c.image),
    workerLastTick: () => worker?.lastTickAt() ?? null,
  });

  const api = createApi({
    health,
    accounts,
    oauth,
    tokens,
    log,
    deployments,
    grading,
    catalogue,
    scoring,
    settings: { durationSeconds: config.deployments.durationSeconds, gatewayApiKey: config.deployments.gatewayApiKey },
  });
  return {
    config,
    log,
    db,
    api,
    accounts,
    tokens,
    webSessions,
    catalogue,
    scoring,
    runtime,
    deployments,
    grading,
    health,
    /** Reconciles with the engine, then expires deployments on time (server.ts starts it). */
    async startWorker() {
      worker ??= await startWorker({ deployments, log, runtime });
    },
    async close() {
      await worker?.stop();
      await deployments.settled();
      await db.destroy();
    },
  };
}
export type Platform = Awaited<ReturnType<typeof createPlatform>>;

/** This installation's id, made once into DATA_DIR: it labels every container we start. */
function instanceId(dataDir: string): string {
  const file = join(dataDir, "instance-id");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const id = randomUUID().slice(0, 13);
  writeFileSync(file, id + "\n");
  return id;
}
