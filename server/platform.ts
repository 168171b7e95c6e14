// Wires the platform from its configuration: database, domain services, API. The composition
// root for everything but the transports, so tests can build the same platform server.ts runs.
// Background roles (the deployments worker) are started by `startWorker`, not at creation, so a
// platform built for API tests does not touch the Docker engine.
// Over 350 lines: the composition root: it wires every service once, in dependency order.
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { createApi } from "./api/index.ts";
import { createAccountDeletion } from "./core/accounts/deletion.ts";
import { createEmailChange } from "./core/accounts/email-change.ts";
import { createAccountExport } from "./core/accounts/export.ts";
import { createAccounts } from "./core/accounts/index.ts";
import { createCredentialEvents } from "./core/accounts/credentials.ts";
import { createNotifications } from "./core/accounts/notifications.ts";
import { createPasswordReset } from "./core/accounts/password-reset.ts";
import { adminAdmission, createAdmin, publicNotice } from "./core/admin/index.ts";
import { libraryFingerprint, recordLibrary } from "./core/admin/challenges.ts";
import { createSettings } from "./core/admin/settings.ts";
import { createAudit } from "./core/audit.ts";
import { createBilling } from "./core/billing.ts";
import { createCatalogue } from "./core/catalogue.ts";
import { createDeployments } from "./core/deployments/index.ts";
import { createDebriefs } from "./core/debrief.ts";
import { createGrading } from "./core/grading.ts";
import { createHints } from "./core/hints.ts";
import { createRecordingAccess } from "./core/recordings/access.ts";
import { createRecordedCommands } from "./core/recordings/commands.ts";
import { createCommandExtractor } from "./core/recordings/extractor.ts";
import { createRecordingQuota } from "./core/recordings/quota.ts";
import { createRecorder, RECORDING_MAX_BYTES } from "./core/recordings/recorder.ts";
import { createRecordingStore } from "./core/recordings/store.ts";
import { createDiskSpace } from "./disk-space.ts";
import { createHealth } from "./core/health.ts";
import { createOAuth } from "./core/auth/oauth.ts";
import { createPlans } from "./core/plans.ts";
import { createRateLimiter } from "./core/ratelimit.ts";
import { createDbRateLimiter } from "./core/ratelimit-db.ts";
import { createCluster } from "./db/cluster.ts";
import { createScoring } from "./core/scoring.ts";
import { createPublicCache } from "./core/public-cache.ts";
import { FRESH_SECONDS } from "./api/player-routes.ts";
import { refreshStatistics, STATISTICS_INTERVAL_MS } from "./db/statistics.ts";
import { createTokenService } from "./core/auth/tokens.ts";
import { createPersonalTokens } from "./core/auth/personal-tokens.ts";
import { createWebSessions } from "./core/auth/web-sessions.ts";
import { type Db, nowSeconds, openDatabase } from "./db/index.ts";
import { createLogger } from "./logger.ts";
import { createMetrics, timedStart, timedSubmit } from "./metrics.ts";
import { createMailer } from "./mail/mailer.ts";
import { loadLibrary } from "./library/challenges.ts";
import { createDockerRuntime } from "./runtime/docker/index.ts";
import { startWorker } from "./worker.ts";

export async function createPlatform(config: Config) {
  const log = createLogger(config.logLevel, config.logFormat);
  const db = await openDatabase(config.database);
  // Prometheus metrics (server/metrics.ts); server.ts serves them at /metrics.
  const metrics = createMetrics({ db, log });
  // What players make us write stops at the free-space floor (server/disk-space.ts), measured
  // where it lives: recordings (RECORDINGS_DIR) and the outbox (DATA_DIR).
  const recordingsDisk = createDiskSpace({ dir: config.recordings.dir, floorBytes: config.minFreeBytes });
  const dataDisk = createDiskSpace({ dir: config.dataDir, floorBytes: config.minFreeBytes });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log,
    env: config.env,
    outbox: config.outbox,
    disk: dataDisk,
  });
  // The other replicas on this database, if any (server/db/cluster.ts; on SQLite: none).
  const cluster = await createCluster(config.database, db, log);
  // Rate limits every replica shares on PostgreSQL; in this process on SQLite (one process).
  const dbLimiter = config.database.kind === "postgres" ? createDbRateLimiter(db) : null;
  const limiter = dbLimiter ?? createRateLimiter();
  const tokens = createTokenService(db, config.sessionSecret);
  const webSessions = createWebSessions({ db, sessionSecret: config.sessionSecret, secureCookies: config.secureCookies });
  // Typed text in the log (a failed sign-in naming no account) is kept only as a hash keyed from SESSION_SECRET.
  const audit = createAudit({ db, log, secret: createHmac("sha256", config.sessionSecret).update("faultline audit typed identifiers").digest("hex") });
  // What an admin changes while the platform runs (the deployment duration, cap, maintenance mode).
  const settings = await createSettings({
    db,
    defaultDurationSeconds: config.deployments.durationSeconds,
    maxLifetimeSeconds: config.deployments.maxLifetimeSeconds,
    onSaved: () => cluster.publish("settings"),
  });
  cluster.on("settings", () => void settings.reload().catch((e) => log.error("reloading settings saved by another replica", e)));
  const consoleRules = adminAdmission(db, settings);
  const scoring = createScoring({ db });
  // Visitors' catalogue, leaderboard and home figures; invalidate() drops it (a replica told of
  // another's change may call it; the database's change counter already covers every writer).
  const publicCache = createPublicCache({ db, freshSeconds: FRESH_SECONDS });
  cluster.on("public-cache", () => publicCache.invalidate());
  // Ended web sessions close live sockets on every replica (server/http/live.ts listens to both).
  webSessions.onEnded((e) => cluster.publish("session-ended", e));
  // Planner statistics stay current as tables grow (server/db/statistics.ts); the first ran at start.
  const statistics = setInterval(() => void refreshStatistics(db).catch((e) => log.error(`statistics refresh failed: ${String(e)}`)), STATISTICS_INTERVAL_MS);
  statistics.unref();
  // Password and SSH key changes end SSH connections on every replica (server.ts listens).
  const credentials = createCredentialEvents();
  credentials.on((e) => cluster.publish("credentials-changed", e));
  // No username may equal a challenge id (the library as loaded now: reloads change it).
  const accounts = createAccounts({
    db,
    tokens,
    mailer,
    limiter,
    publicUrl: config.publicUrl,
    scoring,
    webSessions,
    audit,
    challengeIds: () => challenges.keys(),
    log,
    credentials,
  });
  const oauth = createOAuth({ db, tokens, accounts, providers: config.oauth, publicUrl: config.publicUrl, limiter });

  // A broken challenge folder is reported and left out; the rest of the library stays in service.
  const { challenges: challengeList, problems } = loadLibrary(config.challengesDir);
  for (const p of problems) log.error(`challenge not loaded: ${p.message}`);
  const challenges = new Map(challengeList.map((c) => [c.id, c]));
  const catalogue = createCatalogue({ db, challenges: challengeList });
  await catalogue.sync();
  // The other replicas read the folder again when the library written differs from theirs
  // (server/core/admin/challenges.ts: a restart after a content update reaches them all).
  const contentFingerprint = libraryFingerprint(challengeList);
  if (await recordLibrary(db, contentFingerprint)) cluster.publish("content");

  // dockerode connects lazily: creating the driver costs nothing when no deployment starts.
  const runtime =
    config.deployments.runtime === "docker"
      ? createDockerRuntime({
          log: (m) => log.info(`runtime: ${m}`),
          warn: (m) => log.error(`runtime: ${m}`),
          ociRuntime: config.deployments.ociRuntime,
          // Kept across restarts: the first deployment of an image after one does not pay for it.
          cacheDir: join(config.dataDir, "cache"),
        })
      : null;
  const plans = createPlans({ db, titleOf: (id) => challenges.get(id)?.title });
  const instance = await installationId(db, config.dataDir);
  const billing = createBilling({ db, plans, config: config.billing, publicUrl: config.publicUrl, log, installation: instance });
  const deployments = createDeployments({
    db,
    runtime,
    challenges,
    log,
    limiter,
    instance,
    replica: { id: cluster.replicaId, alive: cluster.alive, publish: cluster.publish, on: cluster.on },
    ssh: config.ssh,
    durationSeconds: config.deployments.durationSeconds,
    currentDurationSeconds: settings.durationSeconds,
    audit,
    maxLifetimeSeconds: config.deployments.maxLifetimeSeconds,
    maxConcurrentPerUser: config.deployments.maxConcurrentPerUser,
    capacityBytes: config.deployments.capacityBytes,
    pool: config.deployments.pool,
    poolHold: consoleRules.poolHold,
    // The admin console's rules first (maintenance, hidden challenges: server/core/admin), then
    // the user's plan: what they may start and how many at once (server/core/plans.ts); the
    // platform-wide cap last, under the start locks.
    admission: {
      applicant: [...consoleRules.applicant, ...plans.admission.applicant],
      capacity: [...plans.admission.capacity, ...consoleRules.capacity],
    },
  });
  // Costed hints, the debrief after solving, recordings' owners and publishing.
  const hints = createHints({ db, challenges });
  const recordingStore = createRecordingStore({ db, root: config.recordings.dir, staleOpenSeconds: config.deployments.maxLifetimeSeconds + 600 });
  // The commands typed in each shell: extracted once when it ends, in a worker thread.
  const extractor = createCommandExtractor({ log });
  const recordedCommands = createRecordedCommands({ db, store: recordingStore, extractor });
  // Every shell (the SSH gateway's and the browser terminal's) is recorded through this, within
  // the rate, the free-space floor and the quotas (docs/decisions/016-per-user-bounds.md).
  const recorder = createRecorder({
    db,
    store: recordingStore,
    log,
    limiter,
    quota: createRecordingQuota({ db, store: recordingStore, limits: config.recordings, fileBytes: RECORDING_MAX_BYTES }),
    disk: recordingsDisk,
    commands: recordedCommands,
    onRefused: (reason) => metrics.recordingRefused(reason),
  });
  const recordings = createRecordingAccess({ db, store: recordingStore, audit, titleOf: (id) => challenges.get(id)?.title });
  const debriefs = createDebriefs({ db, challenges, store: recordingStore, commands: recordedCommands });
  metrics.setDiskUsage(async () => {
    const usage = await db.selectFrom("recording_usage").select(["bytes", "files"]).where("scope", "=", "all").executeTakeFirst();
    const outbox = await mailer.outboxUsage();
    return [
      {
        what: "recordings",
        bytes: Number(usage?.bytes ?? 0),
        files: Number(usage?.files ?? 0),
        free: (await recordingsDisk.check(), recordingsDisk.lastFree()),
      },
      { what: "outbox", bytes: outbox.bytes, files: outbox.files, free: (await dataDisk.check(), dataDisk.lastFree()) },
    ];
  });
  // The account basics: notification mails (feedback after grading, the daily digest
  // of new challenges, unsubscribe links signed with a key derived from SESSION_SECRET), forgot
  // password, e-mail change, export, deletion.
  const notifications = createNotifications({
    db,
    mailer,
    publicUrl: config.publicUrl,
    secret: createHmac("sha256", config.sessionSecret).update("faultline unsubscribe links").digest("hex"),
    log,
  });
  const grading = createGrading({
    db,
    runtime,
    deployments,
    challenges,
    scoring,
    limiter,
    log,
    audit,
    onGraded: (userId, challenge, r) =>
      notifications.submissionGraded(userId, {
        challengeTitle: challenge.title,
        isCorrect: r.is_correct,
        feedback: r.feedback,
        pointsAwarded: r.points_awarded,
        alreadySolved: r.already_solved,
      }),
  });
  const account = {
    notifications,
    passwordReset: createPasswordReset({ db, mailer, limiter, publicUrl: config.publicUrl, tokens, webSessions, audit, credentials, log }),
    emailChange: createEmailChange({ db, mailer, limiter, publicUrl: config.publicUrl, accounts, audit, log }),
    exporter: createAccountExport({ db, scoring, audit, limiter }),
    deletion: createAccountDeletion({
      db,
      accounts,
      tokens,
      webSessions,
      audit,
      terminateAll: deployments.terminateAllForUser,
      deleteRecordings: (userId) => recordingStore.deleteUserRecordings(userId),
      endBilling: (userId) => billing.endFor(userId, { now: true }),
    }),
  };

  let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
  const health = createHealth({
    db,
    runtime,
    images: () => [...challenges.values()].map((c) => c.image),
    workerLastTick: () => worker?.lastTickAt() ?? null,
    roles: { ssh: config.roles.includes("ssh"), worker: config.roles.includes("worker") },
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
      usernameReserved: accounts.usernameReserved,
      endBilling: (userId) => billing.endFor(userId, { now: false }),
      resetTwoFactor: accounts.resetTwoFactorByAdmin,
    },
    challenges: {
      library: challenges,
      fingerprint: contentFingerprint,
      load: () => loadLibrary(config.challengesDir),
      sync: (list) => catalogue.sync(list),
      onReloaded: () => cluster.publish("content"),
    },
  });
  // Another replica reloaded the library (or we reconnected and may have missed it).
  cluster.on("content", () => {
    publicCache.invalidate();
    admin.challenges.follow().then(
      (r) => {
        if (r.reloaded) log.info(`replicas: challenge library read again after another replica's reload (${r.challenges} challenges)`);
        for (const p of r.problems) log.error(`challenge not loaded: ${p}`);
        if (!r.inStep)
          log.warn("replicas: this replica's CHALLENGES_DIR differs from the library the catalogue was last given: every replica must share the same content");
      },
      (e) => log.error("reloading the challenge library after another replica's reload", e),
    );
  });

  const api = createApi({
    admin: { admin, audit, notice: () => publicNotice(settings) },
    plans,
    billing,
    health,
    accounts,
    oauth,
    tokens,
    personalTokens: createPersonalTokens({ db, audit }),
    log,
    // Timed for /metrics: start request → ready, and each graded check.
    deployments: { ...deployments, start: timedStart(deployments, metrics) },
    grading: { ...grading, submit: timedSubmit(grading.submit, metrics) },
    catalogue,
    scoring,
    publicCache,
    debrief: { hints, debriefs, recordings },
    account,
    settings: { durationSeconds: settings.durationSeconds, gatewayApiKey: config.deployments.gatewayApiKey },
  });
  // The warm pool's sizes (server/core/deployments/pool.ts) on each scrape.
  if ("pool" in deployments && deployments.pool) metrics.setPoolSizes(() => deployments.pool.sizes());
  return {
    config,
    log,
    metrics,
    db,
    api,
    accounts,
    tokens,
    webSessions,
    catalogue,
    scoring,
    publicCache,
    runtime,
    deployments,
    grading,
    account,
    hints,
    recordings,
    recordingStore,
    recordedCommands,
    recorder,
    health,
    plans,
    billing,
    audit,
    admin,
    /** The other replicas on this database (server/db/cluster.ts). */
    cluster,
    /** Password and SSH key changes made through this process (core/accounts/credentials.ts). */
    credentials,
    /** The public notice every page shows (maintenance mode). */
    notice: () => publicNotice(settings),
    /** Reconciles with the engine, then expires deployments on time (server.ts starts it). */
    async startWorker() {
      worker ??= await startWorker({
        deployments,
        log,
        runtime,
        leadership: cluster,
        prepare: config.deployments.prepareAtBoot,
        digest: () => notifications.sendDigests(),
        sweepRecordings: async () => {
          const removed = await recordingStore.sweep();
          // Recordings that ended without their commands (older deployments, a process that died).
          await recordedCommands.backfill();
          return removed;
        },
      });
    },
    async close() {
      clearInterval(statistics);
      await worker?.stop();
      await deployments.settled();
      await extractor.close();
      dbLimiter?.close();
      await cluster.close();
      await db.destroy();
    },
  };
}
export type Platform = Awaited<ReturnType<typeof createPlatform>>;

/**
 * This installation's id: it labels every container we start, so reconciliation removes only its
 * own. Kept in the database (the settings table), where every replica finds the same one; an
 * installation from before replicas brings the id it wrote into DATA_DIR, so its running
 * containers are still its own.
 */
async function installationId(db: Db, dataDir: string): Promise<string> {
  const read = async () => (await db.selectFrom("settings").select("value").where("key", "=", INSTALLATION_KEY).executeTakeFirst())?.value;
  const file = join(dataDir, "instance-id");
  let id = await read();
  if (!id) {
    const mine = existsSync(file) ? readFileSync(file, "utf8").trim() : randomUUID().slice(0, 13);
    // Two replicas starting at once: the first write wins, both use it.
    await db
      .insertInto("settings")
      .values({ key: INSTALLATION_KEY, value: mine, updated_at: nowSeconds() })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    id = (await read()) ?? mine;
  }
  // Also in DATA_DIR, where operators (and tests) look for the label's value.
  if (!existsSync(file) || readFileSync(file, "utf8").trim() !== id) writeFileSync(file, id + "\n");
  return id;
}
const INSTALLATION_KEY = "installation-id";
