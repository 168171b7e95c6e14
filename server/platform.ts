// Wires the platform from its configuration: database, domain services, API. The composition
// root for everything but the transports, so tests can build the same platform server.ts runs.
// Background roles (the deployments worker) are started by `startWorker`, not at creation, so a
// platform built for API tests does not touch the Docker engine.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { createApi } from "./api/index.ts";
import { createAccounts } from "./core/accounts/index.ts";
import { adminAdmission, createAdmin, publicNotice } from "./core/admin/index.ts";
import { createSettings } from "./core/admin/settings.ts";
import { createAudit } from "./core/audit.ts";
import { createBilling } from "./core/billing.ts";
import { createCatalogue } from "./core/catalogue.ts";
import { createDeployments } from "./core/deployments/index.ts";
import { createGrading } from "./core/grading.ts";
import { createHealth } from "./core/health.ts";
import { createOAuth } from "./core/oauth.ts";
import { createPlans } from "./core/plans.ts";
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
  const audit = createAudit({ db, log });
  // What an admin changes while the platform runs (session timeout, cap, maintenance mode).
  const settings = await createSettings({
    db,
    defaultDurationSeconds: config.deployments.durationSeconds,
    maxLifetimeSeconds: config.deployments.maxLifetimeSeconds,
  });
  const consoleRules = adminAdmission(db, settings);
  const scoring = createScoring({ db });
  const accounts = createAccounts({ db, tokens, mailer, limiter, publicUrl: config.publicUrl, scoring, webSessions, audit });
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
  const plans = createPlans({ db, titleOf: (id) => challenges.get(id)?.title });
  const billing = createBilling({ db, plans, config: config.billing, publicUrl: config.publicUrl, log });
  const deployments = createDeployments({
    db,
    runtime,
    challenges,
    log,
    limiter,
    instance: instanceId(config.dataDir),
    ssh: config.ssh,
    durationSeconds: config.deployments.durationSeconds,
    currentDurationSeconds: settings.durationSeconds,
    audit,
    maxLifetimeSeconds: config.deployments.maxLifetimeSeconds,
    maxConcurrentPerUser: config.deployments.maxConcurrentPerUser,
    capacityBytes: config.deployments.capacityBytes,
    // The admin console's rules first (maintenance, hidden challenges: server/core/admin), then
    // the user's plan: what they may start and how many at once (server/core/plans.ts); the
    // platform-wide cap last, under the start locks.
    admission: {
      applicant: [...consoleRules.applicant, ...plans.admission.applicant],
      capacity: [...plans.admission.capacity, ...consoleRules.capacity],
    },
  });
  const grading = createGrading({ db, runtime, deployments, challenges, scoring, limiter, log, audit });

  let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
  const health = createHealth({
    db,
    runtime,
    images: () => [...challenges.values()].map((c) => c.image),
    workerLastTick: () => worker?.lastTickAt() ?? null,
    log,
  });

  const admin = createAdmin({
    db,
    audit,
    settings,
    dataDir: config.dataDir,
    users: {
      tokens,
      webSessions,
      terminateAll: deployments.terminateAllForUser,
      sendVerification: accounts.sendVerification,
      setPlan: plans.setPlan,
    },
    challenges: { library: challenges, load: () => loadLibrary(config.challengesDir), sync: (list) => catalogue.sync(list) },
  });

  const api = createApi({
    admin: { admin, audit, notice: () => publicNotice(settings) },
    plans,
    billing,
    health,
    accounts,
    oauth,
    tokens,
    log,
    deployments,
    grading,
    catalogue,
    scoring,
    settings: { durationSeconds: settings.durationSeconds, gatewayApiKey: config.deployments.gatewayApiKey },
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
    plans,
    billing,
    audit,
    admin,
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
