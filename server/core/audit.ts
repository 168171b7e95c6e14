// The audit log: who did what to what, when, and from which address. Services call
// `audit.record(...)` at the moment something happens (a sign-in, a 2FA change, a deployment
// start, an admin action); the caller's address is not passed along every signature but read
// from the request the API is serving (`withRequest`, set once in server/api/index.ts), so the
// worker's own acts (expiry) carry none. Recording never fails the act it records: a failed
// insert is logged and the act goes on.
//
// Entries hold ids, never names (migration 0018): the actor's user id, and a typed target
// (a user, a challenge or a recording, and its id). Names are read by joining users when the log
// is shown, so no one can claim entries by picking a name (a username equal to a challenge id
// used to match every entry about that challenge), and a deleted account's name leaves every
// entry with it. What someone typed at a failed sign-in that named no account is kept only as a
// keyed hash (it may be a password typed into the wrong field).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHmac, randomBytes } from "node:crypto";
import { type SqlBool, sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditTargetType } from "#shared/contract/admin.ts";

export { AUDIT_ACTIONS, type AuditAction, type AuditTargetType };

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
}

export interface AuditInput {
  action: AuditAction;
  /** The acting user; omitted for the platform itself. */
  actorId?: string | null;
  /** What the act was about, by id. */
  target?: AuditTarget | null;
  /** What someone typed that named no account (a failed sign-in): stored only as `detail.typed_hash`,
   *  a keyed hash, so repeated attempts with the same text can be told apart without the text. */
  typed?: string;
  detail?: Record<string, unknown>;
}

export interface AuditFilter {
  action?: string;
  /** A username (exact, any case): the entries made by that account, found by its id. */
  actor?: string;
  /** A user id: the entries made by that account or about it. */
  user?: string;
  /** Epoch seconds, inclusive. */
  from?: number;
  /** Epoch seconds, inclusive. */
  to?: number;
}

export const AUDIT_PAGE_SIZE = 50;
/** Rows read at a time when exporting: the export streams, it never holds the whole log. */
const EXPORT_CHUNK = 500;

const requestInfo = new AsyncLocalStorage<{ clientIp: string }>();

/** Runs `fn` with the request's caller known to the audit log (the API wraps every request). */
export function withRequest<T>(info: { clientIp: string }, fn: () => T): T {
  return requestInfo.run(info, fn);
}

/** An id that sorts by time: milliseconds in 11 base-36 digits, then 6 random bytes. */
const newId = () => Date.now().toString(36).padStart(11, "0") + randomBytes(6).toString("hex");

const parseDetail = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

export interface AuditDeps {
  db: Db;
  log: Logger;
  /** Key of the typed-text hashes (derived from SESSION_SECRET in server/platform.ts, so the hashes
   *  mean the same across restarts and replicas); without it, a random key for this process. */
  secret?: string;
}

type EntryRow = {
  id: string;
  at: number;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  ip: string | null;
  detail: string | null;
};

export function createAudit({ db, log, secret }: AuditDeps) {
  const typedKey = secret ?? randomBytes(32).toString("hex");
  const typedHash = (text: string) => createHmac("sha256", typedKey).update(`audit typed identifier\0${text.trim().toLowerCase()}`).digest("hex").slice(0, 32);

  function filtered(f: AuditFilter) {
    let q = db.selectFrom("audit_log as l");
    if (f.action) q = q.where("l.action", "=", f.action);
    if (f.actor) {
      const name = f.actor.toLowerCase();
      q = q.where(
        "l.actor_id",
        "in",
        db
          .selectFrom("users")
          .select("id")
          .where(sql<SqlBool>`lower(username) = ${name}`),
      );
    }
    if (f.user) {
      const id = f.user;
      q = q.where((eb) => eb.or([eb("l.actor_id", "=", id), eb.and([eb("l.target_type", "=", "user"), eb("l.target_id", "=", id)])]));
    }
    if (f.from !== undefined) q = q.where("l.at", ">=", f.from);
    if (f.to !== undefined) q = q.where("l.at", "<=", f.to);
    return q;
  }

  /** The filtered entries with the names of their actor and (user) target, as they are now. */
  const withNames = (f: AuditFilter) =>
    filtered(f)
      .leftJoin("users as a", "a.id", "l.actor_id")
      .leftJoin("users as t", (j) => j.onRef("t.id", "=", "l.target_id").on("l.target_type", "=", "user"))
      .select([
        "l.id",
        "l.at",
        "l.actor_id",
        "a.username as actor_name",
        "l.action",
        "l.target_type",
        "l.target_id",
        "t.username as target_name",
        "l.ip",
        "l.detail",
      ]);

  const toEntry = (r: EntryRow): AuditEntry => ({
    id: r.id,
    at: Number(r.at),
    actor_id: r.actor_id,
    actor: r.actor_name,
    action: r.action,
    target_type: r.target_type as AuditTargetType | null,
    target_id: r.target_id,
    target: r.target_type === "user" ? r.target_name : r.target_id,
    ip: r.ip,
    detail: parseDetail(r.detail),
  });

  return {
    /** Writes one entry; never throws (the act it records has happened either way). */
    async record(e: AuditInput): Promise<void> {
      try {
        const detail = e.typed === undefined ? e.detail : { ...e.detail, typed_hash: typedHash(e.typed) };
        await db
          .insertInto("audit_log")
          .values({
            id: newId(),
            at: nowSeconds(),
            actor_id: e.actorId ?? null,
            action: e.action,
            target_type: e.target?.type ?? null,
            target_id: e.target ? String(e.target.id).slice(0, 300) : null,
            ip: requestInfo.getStore()?.clientIp ?? null,
            detail: detail ? JSON.stringify(detail) : null,
          })
          .execute();
      } catch (err) {
        log.error(`audit: could not record ${e.action}`, err);
      }
    },

    /** One page of entries, newest first. */
    async list(f: AuditFilter & { page?: number; limit?: number } = {}) {
      const limit = f.limit ?? AUDIT_PAGE_SIZE;
      const page = Math.max(1, f.page ?? 1);
      const [rows, count] = await Promise.all([
        withNames(f)
          .orderBy("l.id", "desc")
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        filtered(f)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return { entries: rows.map(toEntry), total, page, pages: Math.max(1, Math.ceil(total / limit)) };
    },

    /** Every matching entry, newest first, as JSON lines, read a chunk at a time. */
    exportLines(f: AuditFilter = {}): ReadableStream<Uint8Array> {
      const encoder = new TextEncoder();
      let before: string | null = null;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            let q = withNames(f).orderBy("l.id", "desc").limit(EXPORT_CHUNK);
            if (before !== null) q = q.where("l.id", "<", before);
            const rows = await q.execute();
            if (rows.length) {
              before = rows[rows.length - 1]!.id;
              controller.enqueue(encoder.encode(rows.map((r) => JSON.stringify(toEntry(r)) + "\n").join("")));
            }
            if (rows.length < EXPORT_CHUNK) controller.close();
          } catch (err) {
            log.error("audit: export failed", err);
            controller.error(err);
          }
        },
      });
    },
  };
}
export type Audit = ReturnType<typeof createAudit>;
