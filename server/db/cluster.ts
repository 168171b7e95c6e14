// The replicas of one installation, as seen from one of them (docs/architecture.md, "Processes
// and replicas"). On PostgreSQL several server processes share one database; each holds one
// dedicated connection of its own (not from the pool) for three things that last as long as the
// process does:
// - LISTEN: events one replica must pass to the others (a deployment's live status, a deployment
//   ended, a web session ended, a cache to drop), sent with NOTIFY on the shared channel;
// - a session-level advisory lock on its own key: proof that it is alive. The database frees it
//   the moment the connection dies (kill -9, a crash, a lost host), so "is the replica that was
//   deploying this still there?" is answered by pg_locks, without heartbeats to tune;
// - the worker's leadership, another session-level advisory lock: exactly one replica holds it
//   and runs reconciliation and expiry; when its connection dies, the next try elsewhere wins.
// NOTIFY is fire and forget: what is sent while a replica's listening connection is down never
// reaches it. So the topics that only say "read again what you keep" (STATE_TOPICS) are told to
// this replica's own listeners after every reconnect, once LISTEN is in place again: whatever
// changed meanwhile is read, and whatever changes later is heard.
// On SQLite there is one process per database file: everything here is that process's own.
import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type pg from "pg";
import type { Config } from "#server/config.ts";
import type { Logger } from "#server/logger.ts";
import type { Db } from "./index.ts";

/** The NOTIFY channel every replica of the database listens on. */
const CHANNEL = "faultline_events";
/** Advisory-lock namespaces (the first of two int4 keys): "FL" and a number, far from others'. */
export const LOCK_SPACE = { leader: 0x464c0001, replica: 0x464c0002, start: 0x464c0003 } as const;
/** NOTIFY payloads are limited to 8000 bytes; ours are a few hundred. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MS = 2000;
/** A leader checks that its connection still answers at most this often. */
const VERIFY_MS = 5000;
/** Every replica asks its listening connection this often whether it still answers: a half-open
 *  socket (a lost host, a dropped NAT entry) says nothing by itself, and a replica listening on
 *  one would miss every event until TCP's own keepalive gives up, hours later. */
const HEARTBEAT_MS = 10_000;
/** How long that question may go unanswered before the connection counts as lost. */
const HEARTBEAT_TIMEOUT_MS = 5000;

/**
 * Topics whose events carry no data and mean "what you keep of this changed: read it again"
 * (the admin console's settings, the public caches, the challenge library). Telling a listener
 * of one when nothing changed costs a read, so after a reconnect each is told as if another
 * replica had published it: the events lost while the connection was down are made good.
 * Topics with data (a deployment's live status, a session's end) are not replayed: they have
 * nothing to re-read (see README, "Several replicas").
 */
export const STATE_TOPICS = ["settings", "public-cache", "content"] as const;

export interface Cluster {
  /** This process among the replicas (stored with what it does, e.g. deployments.deployer). */
  readonly replicaId: string;
  /** True on PostgreSQL: other replicas may exist and hear what we publish. */
  readonly shared: boolean;
  /** Tells every other replica (not this one: its own listeners were told directly). */
  publish(topic: string, data?: unknown): void;
  /** Listens to what other replicas publish; returns the unsubscribe function. */
  on(topic: string, listener: (data: unknown) => void): () => void;
  /** Takes the worker's leadership if it is free, or confirms we still hold it. */
  lead(): Promise<boolean>;
  /** Whether we hold the leadership (as far as this process knows). */
  isLeader(): boolean;
  /** Of these replica ids, the ones whose process is alive. */
  alive(ids: readonly string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

export async function createCluster(database: Config["database"], db: Db, log: Logger): Promise<Cluster> {
  return database.kind === "postgres" ? postgresCluster(database.url, db, log) : localCluster();
}

/** One process, nobody else to tell or to ask. */
function localCluster(): Cluster {
  const replicaId = String(randomInt(1, 2 ** 31 - 1));
  return {
    replicaId,
    shared: false,
    publish() {},
    on: () => () => {},
    lead: async () => true,
    isLeader: () => true,
    alive: async (ids) => new Set(ids.filter((id) => id === replicaId)),
    async close() {},
  };
}

async function postgresCluster(url: string, db: Db, log: Logger): Promise<Cluster> {
  const { default: pgLib } = await import("pg");
  // The lock key is the replica's id: positive int4, so pg_locks shows it as is in objid.
  const key = randomInt(1, 2 ** 31 - 1);
  const replicaId = String(key);
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  let client: pg.Client | null = null;
  let leader = false;
  let verifiedAt = 0;
  let closed = false;
  let reconnect: NodeJS.Timeout | undefined;
  let connectedBefore = false;

  function tell(topic: string, data: unknown) {
    for (const l of listeners.get(topic) ?? []) {
      try {
        l(data);
      } catch (e) {
        log.error(`replicas: a listener of "${topic}" failed`, e);
      }
    }
  }

  function dispatch(payload: string | undefined) {
    let m: { o?: string; t?: string; d?: unknown };
    try {
      m = JSON.parse(payload ?? "");
    } catch {
      return;
    }
    if (m.o === replicaId || typeof m.t !== "string") return;
    tell(m.t, m.d);
  }

  /** The connection is gone: leadership and the alive-lock went with it; connect again. */
  function lost(c: pg.Client, why: string) {
    if (client !== c) return;
    client = null;
    if (leader) log.warn(`replicas: leadership lost (${why})`);
    leader = false;
    c.removeAllListeners();
    c.on("error", () => {});
    void c.end().catch(() => {});
    if (!closed) {
      log.warn(`replicas: the listening connection to PostgreSQL was lost (${why}); reconnecting`);
      reconnect = setTimeout(() => void connect().catch(() => {}), RECONNECT_MS);
    }
  }

  async function connect() {
    const c = new pgLib.Client({ connectionString: url, application_name: `faultline replica ${replicaId}`, keepAlive: true });
    c.on("error", (e) => lost(c, e.message));
    c.on("end", () => lost(c, "connection ended"));
    c.on("notification", (n) => n.channel === CHANNEL && dispatch(n.payload));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      await c.query("SELECT pg_advisory_lock($1, $2)", [LOCK_SPACE.replica, key]);
    } catch (e) {
      c.removeAllListeners();
      c.on("error", () => {});
      void c.end().catch(() => {});
      if (!closed) reconnect = setTimeout(() => void connect().catch(() => {}), RECONNECT_MS);
      throw e;
    }
    if (closed) return void (await c.end().catch(() => {}));
    client = c;
    verifiedAt = Date.now();
    if (connectedBefore) {
      log.info("replicas: listening again; reading what may have changed meanwhile");
      for (const topic of STATE_TOPICS) tell(topic, undefined);
    }
    connectedBefore = true;
  }
  await connect();

  const heartbeat = setInterval(() => {
    const c = client;
    if (!c) return;
    const late = setTimeout(() => lost(c, `no answer to the heartbeat in ${HEARTBEAT_TIMEOUT_MS} ms`), HEARTBEAT_TIMEOUT_MS);
    c.query("SELECT 1").then(
      () => (clearTimeout(late), (verifiedAt = Date.now())),
      (e: Error) => (clearTimeout(late), lost(c, e.message)),
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    replicaId,
    shared: true,
    publish(topic, data) {
      const payload = JSON.stringify({ o: replicaId, t: topic, d: data });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) return log.error(`replicas: "${topic}" event too large to pass on (${payload.length} bytes)`);
      // Through the pool: a replica whose listening connection is reconnecting still speaks.
      void sql`SELECT pg_notify(${CHANNEL}, ${payload})`.execute(db).catch((e) => log.warn(`replicas: passing on "${topic}" failed: ${(e as Error).message}`));
    },
    on(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    async lead() {
      const c = client;
      if (!c) return false;
      try {
        if (leader) {
          // A connection can die without telling us (a half-open socket): ask it now and then.
          if (Date.now() - verifiedAt >= VERIFY_MS) {
            await c.query("SELECT 1");
            verifiedAt = Date.now();
          }
          return leader;
        }
        const { rows } = await c.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1, 0) AS got", [LOCK_SPACE.leader]);
        leader = client === c && rows[0]?.got === true;
        if (leader) {
          verifiedAt = Date.now();
          log.info(`replicas: replica ${replicaId} leads the worker`);
        }
        return leader;
      } catch (e) {
        lost(c, (e as Error).message);
        return false;
      }
    },
    isLeader: () => leader,
    async alive(ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await sql<{ objid: string }>`
        SELECT objid::text AS objid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${LOCK_SPACE.replica} AND objsubid = 2
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(db);
      const up = new Set(rows.map((r) => r.objid));
      return new Set(ids.filter((id) => up.has(id)));
    },
    async close() {
      closed = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      const c = client;
      client = null;
      leader = false;
      if (c) {
        c.removeAllListeners();
        c.on("error", () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
