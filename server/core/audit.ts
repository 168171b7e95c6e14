// The audit log: who did what to what, when, and from which address. Services call
// `audit.record(...)` at the moment something happens (a sign-in, a 2FA change, a deployment
// start, an admin action); the caller's address is not passed along every signature but read
// from the request the API is serving (`withRequest`, set once in server/api/index.ts), so the
// worker's own acts (expiry) carry none. Recording never fails the act it records: a failed
// insert is logged and the act goes on.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { type SqlBool, sql } from "kysely";
import type { Db } from "../db/index.ts";
import { nowSeconds } from "../db/index.ts";
import type { Logger } from "../logger.ts";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "../../shared/contract/admin.ts";

export { AUDIT_ACTIONS, type AuditAction };

export interface AuditInput {
  action: AuditAction;
  /** The acting user; omitted for the platform itself. */
  actorId?: string | null;
  /** Their name (looked up from actorId when not given), or what was typed at a failed sign-in. */
  actorName?: string | null;
  target?: string | null;
  detail?: Record<string, unknown>;
}


export interface AuditFilter {
  action?: string;
  /** A user name (exact, any case). */
  actor?: string;
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

export function createAudit({ db, log }: { db: Db; log: Logger }) {
  function filtered(f: AuditFilter) {
    let q = db.selectFrom("audit_log").selectAll();
    if (f.action) q = q.where("action", "=", f.action);
    if (f.actor) q = q.where(sql<SqlBool>`lower(actor_name) = ${f.actor.toLowerCase()}`);
    if (f.from !== undefined) q = q.where("at", ">=", f.from);
    if (f.to !== undefined) q = q.where("at", "<=", f.to);
    return q;
  }

  const toEntry = (r: { id: string; at: number; actor_id: string | null; actor_name: string | null; action: string; target: string | null; ip: string | null; detail: string | null }): AuditEntry => ({
    id: r.id,
    at: Number(r.at),
    actor_id: r.actor_id,
    actor: r.actor_name,
    action: r.action,
    target: r.target,
    ip: r.ip,
    detail: parseDetail(r.detail),
  });

  return {
    /** Writes one entry; never throws (the act it records has happened either way). */
    async record(e: AuditInput): Promise<void> {
      try {
        let actorName = e.actorName ?? null;
        if (actorName === null && e.actorId) {
          const u = await db.selectFrom("users").select("username").where("id", "=", e.actorId).executeTakeFirst();
          actorName = u?.username ?? null;
        }
        await db
          .insertInto("audit_log")
          .values({
            id: newId(),
            at: nowSeconds(),
            actor_id: e.actorId ?? null,
            actor_name: actorName === null ? null : actorName.slice(0, 200),
            action: e.action,
            target: e.target === undefined || e.target === null ? null : String(e.target).slice(0, 300),
            ip: requestInfo.getStore()?.clientIp ?? null,
            detail: e.detail ? JSON.stringify(e.detail) : null,
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
        filtered(f).orderBy("id", "desc").limit(limit).offset((page - 1) * limit).execute(),
        filtered(f).clearSelect().select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
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
            let q = filtered(f).orderBy("id", "desc").limit(EXPORT_CHUNK);
            if (before !== null) q = q.where("id", "<", before);
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
