// Deployments: one user's running environment for one challenge. Starting answers at once and
// finishes in the background (queued → deploying → setting_up → ready, or failed); extend,
// terminate, expiry, the reconciliation after a restart, and the SSH gateway's routing question
// ("where may this key go?") all live here. No HTTP: the API and the live channel call in.
import { createHash, randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Selectable } from "kysely";
import type { Db } from "../db/index.ts";
import { nowSeconds } from "../db/index.ts";
import type { DeploymentsTable, DeploymentStatus } from "../db/schema.ts";
import type { Refusal, Resolve, Target } from "../gateway/types.ts";
import type { Logger } from "../logger.ts";
import type { Challenge } from "../runtime/challenges.ts";
import { LABEL } from "../runtime/policy.ts";
import { type Environment, provision, runSetup, type ScenarioValues } from "../runtime/scenario.ts";
import { RuntimeError, type Owner, type Runtime } from "../runtime/types.ts";
import { deploymentCost, fullMessage } from "./capacity.ts";
import { ApiError, badRequest, conflict, forbidden, notFound } from "./errors.ts";
import type { RateLimiter } from "./ratelimit.ts";
import { VERIFY_TO_START } from "../../shared/rules.ts";

export type DeploymentRow = Selectable<DeploymentsTable>;

export const ACTIVE: DeploymentStatus[] = ["queued", "deploying", "setting_up", "ready"];
const isActive = (s: DeploymentStatus) => ACTIVE.includes(s);

export interface SshDetails {
  ssh_host: string;
  ssh_port: number;
  ssh_user: string;
  /** The gateway's host key as `ssh-keygen -l` prints it ("SHA256:..."), so a first connection
   *  can be checked instead of trusted blindly; absent until the gateway listens. */
  host_key_fingerprint?: string;
}

/** Where the SSH gateway listens and which host key it presents. */
export interface SshEndpoint {
  host: string;
  port: number;
  hostKeyFingerprint?: string;
  /** "ssh-ed25519 AAAA..." */
  hostPublicKey?: string;
}

/** What the owner sees of a deployment (never the scenario's values). */
export interface DeploymentView {
  deployment_id: string;
  challenge_id: string;
  status: DeploymentStatus;
  expires_at: string;
  created_at: string;
  ready_at: string | null;
  ssh_details: SshDetails | null;
  websocket_url: string;
  error_message: string | null;
}

/** Messages of the live channel (/ws/deployments/{id}); shapes in docs/api.md. */
export type LiveMessage =
  | ({ type: "deployment_update" } & Pick<DeploymentView, "deployment_id" | "status" | "expires_at" | "ssh_details" | "error_message">)
  | { type: "progress_update"; deployment_id: string; status: DeploymentStatus; progress: number; message: string }
  | ({ type: "deployment_ready" } & Pick<DeploymentView, "deployment_id" | "status" | "expires_at" | "ssh_details">)
  | { type: "deployment_error"; deployment_id: string; status: "failed"; error: string }
  | { type: "deployment_logs"; deployment_id: string; line: string };

export interface DeploymentsDeps {
  db: Db;
  /** null when no engine is configured: starting answers 503. */
  runtime: Runtime | null;
  challenges: ReadonlyMap<string, Challenge>;
  log: Logger;
  limiter: RateLimiter;
  /** This installation's id: labels every container so reconciliation removes only its own. */
  instance: string;
  ssh: SshEndpoint;
  durationSeconds: number;
  maxLifetimeSeconds: number;
  maxConcurrentPerUser: number;
  /** Bytes of memory all active deployments may take together (admission control, capacity.ts);
   *  undefined: no limit. */
  capacityBytes?: number;
}

// Each start builds a network and a container: a hostile user looping start/terminate would keep
// the engine busy for everyone. Far more than a person starts while practising.
const STARTS_PER_USER = { max: 20, windowSeconds: 10 * 60 };
/** The key of the platform-wide start lock (user ids are UUIDs: no user has this one). */
const CAPACITY_LOCK = "\0capacity";

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const toError = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function createDeployments(deps: DeploymentsDeps) {
  const { db, runtime, challenges, log, instance } = deps;
  let ssh: SshEndpoint = deps.ssh;
  /** Per-deployment live messages ("message:<id>") and endings ("ended", id) for the gateway. */
  const events = new EventEmitter();
  events.setMaxListeners(0);
  /** Background deploy jobs in flight, so shutdown and tests can wait for them. */
  const jobs = new Map<string, Promise<void>>();
  /** Starts of one user are serialised: the concurrency cap is checked and taken atomically. */
  const userLocks = new Map<string, Promise<unknown>>();

  const byId = (id: string) => db.selectFrom("deployments").selectAll().where("id", "=", id).executeTakeFirst();

  function sshDetails(row: DeploymentRow): SshDetails | null {
    if (row.status !== "ready") return null;
    const details: SshDetails = { ssh_host: ssh.host, ssh_port: ssh.port, ssh_user: row.ssh_user };
    if (ssh.hostKeyFingerprint) details.host_key_fingerprint = ssh.hostKeyFingerprint;
    return details;
  }

  function view(row: DeploymentRow): DeploymentView {
    return {
      deployment_id: row.id,
      challenge_id: row.challenge_id,
      status: row.status,
      expires_at: iso(row.expires_at),
      created_at: iso(row.created_at),
      ready_at: row.ready_at ? iso(row.ready_at) : null,
      ssh_details: sshDetails(row),
      websocket_url: `/ws/deployments/${row.id}`,
      error_message: row.error_message,
    };
  }

  function publish(message: LiveMessage) {
    events.emit(`message:${message.deployment_id}`, message);
  }

  function publishState(row: DeploymentRow) {
    const v = view(row);
    publish({ type: "deployment_update", deployment_id: v.deployment_id, status: v.status, expires_at: v.expires_at, ssh_details: v.ssh_details, error_message: v.error_message });
  }

  function progress(row: DeploymentRow, status: DeploymentStatus, percent: number, message: string) {
    publish({ type: "progress_update", deployment_id: row.id, status, progress: percent, message });
    publish({ type: "deployment_logs", deployment_id: row.id, line: message });
  }

  function challengeOf(id: string): Challenge {
    const c = challenges.get(id);
    if (!c) throw notFound("Challenge not found");
    return c;
  }

  function owner(row: DeploymentRow): Owner {
    return { deploymentId: row.id, userId: row.user_id, challengeId: row.challenge_id, instance };
  }

  /** Moves an active deployment to `status` only if it is still in one of `from`; the row after. */
  async function transition(id: string, from: DeploymentStatus[], values: Partial<DeploymentRow>): Promise<DeploymentRow | null> {
    const res = await db
      .updateTable("deployments")
      .set({ ...values, updated_at: nowSeconds() })
      .where("id", "=", id)
      .where("status", "in", from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    const row = (await byId(id))!;
    publishState(row);
    return row;
  }

  // ------------------------------------------------------------------ starting

  async function withUserLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    const previous = userLocks.get(userId) ?? Promise.resolve();
    const mine = previous.catch(() => {}).then(fn);
    userLocks.set(userId, mine);
    try {
      return await mine;
    } finally {
      if (userLocks.get(userId) === mine) userLocks.delete(userId);
    }
  }

  async function start(userId: string, challengeId: string) {
    const challenge = challengeOf(challengeId);
    const user = await db.selectFrom("users").select(["is_verified", "ssh_public_key"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw notFound("User not found");
    if (user.is_verified !== 1) throw forbidden(VERIFY_TO_START);
    if (!user.ssh_public_key) {
      throw badRequest("An SSH key is required to access challenge environments. Add your public key in Settings → Security first.");
    }
    deps.limiter.consume(`start:${userId}`, STARTS_PER_USER);

    // The user's lock, then the platform-wide one: the capacity is checked and taken atomically.
    const row = await withUserLock(userId, () => withUserLock(CAPACITY_LOCK, async () => {
      const active = await db.selectFrom("deployments").select(["id", "challenge_id"]).where("user_id", "=", userId).where("status", "in", ACTIVE).execute();
      if (active.some((d) => d.challenge_id === challengeId)) throw conflict("You already have an active deployment for this challenge.");
      if (active.length >= deps.maxConcurrentPerUser) {
        const titles = active.map((d) => challenges.get(d.challenge_id)?.title ?? d.challenge_id).join(", ");
        throw new ApiError(
          429,
          `You can run ${deps.maxConcurrentPerUser} deployment${deps.maxConcurrentPerUser === 1 ? "" : "s"} at a time. Terminate your deployment of "${titles}" first.`,
        );
      }
      await admit(challenge);
      if (!runtime) throw new ApiError(503, "The challenge runtime is not available right now. Please try again later.");
      const now = nowSeconds();
      const values: DeploymentRow = {
        id: randomUUID(),
        user_id: userId,
        challenge_id: challengeId,
        status: "queued",
        error_message: null,
        ssh_user: challenge.id,
        container_id: null,
        scenario_values: null,
        active_key: `${userId}:${challengeId}`,
        created_at: now,
        ready_at: null,
        expires_at: now + deps.durationSeconds,
        ended_at: null,
        updated_at: now,
      };
      try {
        await db.insertInto("deployments").values(values).execute();
      } catch (e) {
        // The unique index on active_key: another start of the same challenge won the race.
        if (/unique|duplicate/i.test(toError(e))) throw conflict("You already have an active deployment for this challenge.");
        throw e;
      }
      return values;
    }));
    launch(row);
    return {
      expires_at: iso(row.expires_at),
      deployment_status: { deployment_id: row.id, status: row.status },
      session_id: row.id,
    };
  }

  /** Admission control: refuses a start (503) when the memory limits of the active deployments
   *  and this one, each with its overhead, would exceed the capacity. */
  async function admit(challenge: Challenge) {
    if (deps.capacityBytes === undefined) return;
    const active = await db.selectFrom("deployments").select(["challenge_id", "expires_at"]).where("status", "in", ACTIVE).execute();
    const taken = active.reduce((sum, d) => sum + deploymentCost(challenges.get(d.challenge_id)), 0);
    if (taken + deploymentCost(challenge) <= deps.capacityBytes) return;
    log.warn(`start refused: capacity full (${active.length} active deployments, ${Math.round(taken / 2 ** 20)} of ${Math.round(deps.capacityBytes / 2 ** 20)} MiB)`);
    throw new ApiError(503, fullMessage(active.map((d) => d.expires_at), nowSeconds()));
  }

  function launch(row: DeploymentRow) {
    const job = deploy(row).finally(() => jobs.delete(row.id));
    jobs.set(row.id, job);
  }

  /** The background part of a start: environment, fault, ready. Any step may find that the
   *  deployment was terminated meanwhile; then what was made is removed and nothing is marked. */
  async function deploy(row: DeploymentRow): Promise<void> {
    const challenge = challenges.get(row.challenge_id);
    const rt = runtime!;
    try {
      if (!challenge) throw new RuntimeError(`challenge ${row.challenge_id} is no longer in the catalogue`, "not_found");
      let current = await transition(row.id, ["queued"], { status: "deploying" });
      if (!current) return;
      progress(current, "deploying", 20, `Creating the environment for ${challenge.title}`);
      // The engine's own hard stop: the longest this deployment may live, plus a minute of grace.
      const hardExpiry = new Date((row.created_at + deps.maxLifetimeSeconds + 60) * 1000);
      const env = await provision(rt, challenge, owner(row), hardExpiry);
      current = await transition(row.id, ["deploying"], { status: "setting_up", container_id: env.target.id });
      if (!current) return void (await rt.removeDeployment(row.id));
      progress(current, "setting_up", 60, `${challenge.hostname} is up; breaking something`);
      const { values } = await runSetup(rt, challenge, env);
      current = await transition(row.id, ["setting_up"], { status: "ready", ready_at: nowSeconds(), scenario_values: JSON.stringify(values) });
      if (!current) return void (await rt.removeDeployment(row.id));
      progress(current, "ready", 100, "Ready: connect with ssh");
      const v = view(current);
      publish({ type: "deployment_ready", deployment_id: v.deployment_id, status: "ready", expires_at: v.expires_at, ssh_details: v.ssh_details });
      log.info(`deployment ${row.id} ready (${challenge.id}, user ${row.user_id}) in ${Date.now() / 1000 - row.created_at}s`);
    } catch (e) {
      log.warn(`deployment ${row.id} (${row.challenge_id}) failed: ${toError(e)}`);
      await rt.removeDeployment(row.id).catch((err) => log.error(`removing failed deployment ${row.id}`, err));
      const failed = await transition(row.id, ["queued", "deploying", "setting_up"], {
        status: "failed",
        error_message: publicError(e),
        active_key: null,
        ended_at: nowSeconds(),
      });
      if (failed) publish({ type: "deployment_error", deployment_id: row.id, status: "failed", error: failed.error_message ?? "" });
    }
  }

  // ------------------------------------------------------------------ extend, terminate, expiry

  async function activeFor(userId: string, challengeId: string) {
    return db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("challenge_id", "=", challengeId)
      .where("status", "in", ACTIVE)
      .executeTakeFirst();
  }

  async function extend(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await activeFor(userId, challengeId);
    if (!row) throw notFound("No active deployment found. Please start the challenge first.");
    if (row.status !== "ready") throw conflict("Only a ready deployment can be extended.");
    const limit = row.created_at + deps.maxLifetimeSeconds;
    if (row.expires_at >= limit) {
      throw conflict(`A deployment lasts at most ${Math.round(deps.maxLifetimeSeconds / 60)} minutes: it cannot be extended further.`);
    }
    const expires = Math.min(row.expires_at + deps.durationSeconds, limit);
    const updated = await transition(row.id, ["ready"], { expires_at: expires });
    if (!updated) throw conflict("Only a ready deployment can be extended.");
    return { expires_at: iso(expires), message: `Extended until ${iso(expires)}` };
  }

  /** Ends an active deployment (any reason): marks it, tells the live channel and the gateway,
   *  removes its containers. Returns false when it was not active any more. */
  async function end(row: Pick<DeploymentRow, "id">, status: "terminated" | "failed", reason: string | null) {
    const ended = await transition(row.id, ACTIVE, { status, active_key: null, ended_at: nowSeconds(), error_message: reason });
    if (!ended) return false;
    events.emit("ended", row.id);
    if (runtime) await runtime.removeDeployment(row.id).catch((e) => log.error(`removing deployment ${row.id}`, e));
    return true;
  }

  async function terminate(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await activeFor(userId, challengeId);
    if (!row) throw notFound("No active deployment found. Please start the challenge first.");
    await end(row, "terminated", null);
    return { message: "Deployment terminated", deployment_id: row.id };
  }

  /** Terminates every active deployment whose time is up. */
  async function expireDue(now = nowSeconds()) {
    const due = await db.selectFrom("deployments").select("id").where("status", "in", ACTIVE).where("expires_at", "<=", now).execute();
    for (const d of due) if (await end(d, "terminated", "The deployment expired.")) log.info(`deployment ${d.id} expired`);
    return due.length;
  }

  /**
   * Brings the database and the engine into agreement (at start, after a crash, and
   * periodically): ready deployments whose container runs are adopted as they are; ones whose
   * container vanished or stopped are marked failed; ones interrupted half-way are deployed
   * again from scratch; containers and networks of this installation that belong to no active
   * deployment are removed.
   */
  async function reconcile({ resume = false } = {}) {
    if (!runtime) return { adopted: 0, restarted: 0, lost: 0, orphans: 0 };
    await expireDue();
    const rows = await db.selectFrom("deployments").selectAll().where("status", "in", ACTIVE).execute();
    const containers = await runtime.list({ [LABEL.instance]: instance });
    const networks = await runtime.listNetworks({ [LABEL.instance]: instance });
    const running = new Set(containers.filter((c) => c.role === "target" && c.state === "running").map((c) => c.owner.deploymentId));
    let adopted = 0;
    let restarted = 0;
    let lost = 0;
    for (const row of rows) {
      if (jobs.has(row.id)) continue; // being deployed by this process right now
      if (row.status === "ready") {
        if (running.has(row.id)) adopted++;
        else if (await end(row, "failed", "The environment stopped unexpectedly. Start the challenge again.")) {
          lost++;
          publish({ type: "deployment_error", deployment_id: row.id, status: "failed", error: "The environment stopped unexpectedly. Start the challenge again." });
        }
      } else if (resume) {
        // Interrupted by a restart half-way: whatever exists may be half made, so start over.
        await runtime.removeDeployment(row.id);
        const again = await transition(row.id, [row.status], { status: "queued", container_id: null });
        if (again) {
          restarted++;
          launch(again);
        }
      }
    }
    const live = new Set(rows.map((r) => r.id));
    const orphans = new Set(
      [...containers.filter((c) => c.role !== "skeleton"), ...networks]
        .map((x) => x.owner.deploymentId)
        .filter((id) => id && !live.has(id) && !jobs.has(id)),
    );
    for (const id of orphans) await runtime.removeDeployment(id).catch((e) => log.error(`removing orphan deployment ${id}`, e));
    if (adopted || restarted || lost || orphans.size) {
      log.info(`reconciled deployments: ${adopted} adopted, ${restarted} restarted, ${lost} lost, ${orphans.size} orphans removed`);
    }
    return { adopted, restarted, lost, orphans: orphans.size };
  }

  // ------------------------------------------------------------------ reading

  async function activeSession(userId: string) {
    const row = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("status", "in", ACTIVE)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (!row) return { has_active_session: false, active_session: null };
    return {
      has_active_session: true,
      active_session: {
        deployment_id: row.id,
        challenge_id: row.challenge_id,
        challenge_title: challenges.get(row.challenge_id)?.title ?? row.challenge_id,
        status: row.status,
        expires_at: iso(row.expires_at),
      },
    };
  }

  /** The user's deployment of a challenge: the active one, else the last one if it failed. */
  async function forChallenge(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("challenge_id", "=", challengeId)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (!row || !(isActive(row.status) || row.status === "failed")) {
      return { deployment_id: null, challenge_id: challengeId, status: "idle" as const, expires_at: null, ssh_details: null, websocket_url: null, error_message: null };
    }
    return view(row);
  }

  /** A deployment by id for its owner (userId) or for a trusted service (userId null). */
  async function get(id: string, userId: string | null) {
    const row = await byId(id);
    if (!row || (userId !== null && row.user_id !== userId)) throw notFound("Deployment not found");
    return view(row);
  }

  /** The row a grader needs (values included), only while ready. */
  async function readyFor(userId: string, challengeId: string, deploymentId?: string) {
    const row = await activeFor(userId, challengeId);
    if (!row || (deploymentId && deploymentId !== row.id)) return null;
    return row;
  }

  /** The environment of a ready deployment, for the grader. */
  async function environment(row: DeploymentRow): Promise<{ env: Environment; values: ScenarioValues }> {
    if (!runtime) throw new ApiError(503, "The challenge runtime is not available right now. Please try again later.");
    const target = row.container_id ? await runtime.inspect(row.container_id) : null;
    const [network] = await runtime.listNetworks({ [LABEL.deployment]: row.id });
    if (!target || target.state !== "running" || !network) {
      throw new ApiError(409, "The environment of this deployment is gone. Start the challenge again.");
    }
    return { env: { owner: owner(row), network, target }, values: JSON.parse(row.scenario_values ?? "{}") as ScenarioValues };
  }

  // ------------------------------------------------------------------ the SSH gateway's question

  const resolve: Resolve = async (sshUser, key) => {
    const fingerprint = "SHA256:" + createHash("sha256").update(key.data).digest("base64").replace(/=+$/, "");
    const user = await db.selectFrom("users").select(["id", "ssh_public_key"]).where("ssh_key_fingerprint", "=", fingerprint).executeTakeFirst();
    // Byte-for-byte: the fingerprint only found the candidate.
    const blob = user?.ssh_public_key?.split(" ")[1];
    if (!user || !blob || !Buffer.from(blob, "base64").equals(key.data)) return null;
    const rows = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("status", "in", ACTIVE)
      .orderBy("created_at", "asc")
      .execute();
    const ready = rows.filter((r) => r.status === "ready" && r.container_id);
    const target = ready.length === 1 ? ready[0] : ready.find((r) => r.ssh_user === sshUser);
    if (target) return toTarget(target);
    if (ready.length > 1) {
      return { refuse: `You have several deployments running: connect as one of ${ready.map((r) => r.ssh_user).join(", ")}.` } satisfies Refusal;
    }
    if (rows.length) return { refuse: "Your deployment is still being set up: try again in a few seconds." } satisfies Refusal;
    return null;
  };

  function toTarget(row: DeploymentRow): Target {
    const challenge = challenges.get(row.challenge_id);
    const shellUser = challenge?.user ?? "root";
    return { deploymentId: row.id, containerId: row.container_id!, shellUser, hostname: challenge?.hostname, userId: row.user_id };
  }

  return {
    events,
    /** Where users are told to connect (the gateway's port is known once it listens). */
    advertiseSsh(endpoint: SshEndpoint) {
      ssh = endpoint;
    },
    /** The gateway's address and host key (null before it listens: no engine, no gateway). */
    sshEndpoint(): SshEndpoint | null {
      return ssh.hostKeyFingerprint ? { ...ssh } : null;
    },
    start,
    extend,
    terminate,
    expireDue,
    reconcile,
    activeSession,
    forChallenge,
    get,
    readyFor,
    environment,
    resolve,
    view,
    /** Subscribes to a deployment's live messages; returns the unsubscribe function. */
    subscribe(id: string, listener: (m: LiveMessage) => void) {
      events.on(`message:${id}`, listener);
      return () => void events.off(`message:${id}`, listener);
    },
    onEnded(listener: (deploymentId: string) => void) {
      events.on("ended", listener);
    },
    /** Resolves when every background deploy job in flight has finished. */
    async settled() {
      while (jobs.size) await Promise.allSettled([...jobs.values()]);
    },
    /** The row by id (owner checks are the caller's). */
    row: byId,
  };
}
export type Deployments = ReturnType<typeof createDeployments>;

/** A failure as the user may read it: runtime errors are ours and safe to show; anything else is
 *  summarised (engine messages can name host paths). */
function publicError(e: unknown): string {
  if (e instanceof RuntimeError) {
    if (e.code === "unavailable") return "The challenge runtime is not reachable right now. Please retry in a minute.";
    if (e.code === "not_found") return `Setting up the environment failed: ${e.message}`;
    return `Setting up the environment failed: ${e.message.slice(0, 300)}`;
  }
  return "Setting up the environment failed. Please retry.";
}
