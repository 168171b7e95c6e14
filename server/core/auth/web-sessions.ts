// Web sign-in sessions (decision 002): the browser's cookie carries a random id, signed; the
// database keeps only the id's SHA-256 (`id_hash`) and the session's data encrypted with
// AES-256-GCM under a key derived from SESSION_SECRET. A copy of the database therefore holds
// neither a usable cookie nor the access and refresh tokens the data carries.
//
// This service owns the `web_sessions` table and the cookie's format, so the web (through its
// load context) and the live channel (server/http/live.ts, which authenticates by this cookie) read
// sessions the same way. Ending sessions is announced (`onEnded`) so live sockets close with
// the session they were opened under.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "react-router";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { hashToken } from "#server/core/secrets.ts";
import { verifiedMemo } from "./verified-memo.ts";

export const WEB_SESSION_SECONDS = 30 * 24 * 3600;

/** Data of one session as the web keeps it; opaque here apart from who it signs in. */
export type WebSessionData = Record<string, unknown>;

export interface WebSession {
  /** The signed-in user, or null for a session that only carries pre-login state. */
  userId: string | null;
  data: WebSessionData;
  expiresAt: number;
}

/** A session (by its key, the id's hash) or every session of a user has ended. */
export interface SessionEnded {
  userId: string | null;
  /** null when every session of `userId` ended (password change, account disabled). */
  key: string | null;
}

export interface WebSessionsDeps {
  db: Db;
  sessionSecret: string;
  /** PUBLIC_URL is https: the cookie is Secure and takes the `__Host-` prefix. */
  secureCookies: boolean;
}

/**
 * `__Host-` makes the browser refuse the cookie unless it is Secure, for Path=/ and without a
 * Domain, so a sibling subdomain or a plain-HTTP answer cannot plant one (session fixation).
 * Browsers accept that prefix only over HTTPS, hence the plain name otherwise.
 */
export const sessionCookieName = (secure: boolean) => (secure ? "__Host-faultline" : "__faultline");

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = "v1";

export function createWebSessions({ db, sessionSecret, secureCookies }: WebSessionsDeps) {
  // A key of its own, derived from the one configured secret (as the JWT key is, tokens.ts).
  const dataKey = Buffer.from(hkdfSync("sha256", sessionSecret, "faultline", "web-session-data", 32));
  const signed: Cookie = createCookie(sessionCookieName(secureCookies), {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies,
    path: "/",
    secrets: [sessionSecret],
    maxAge: WEB_SESSION_SECONDS,
  });
  // The Cookie header's session id as the signature check found it, per header
  // (server/core/auth/verified-memo.ts): a browser sends the same header on each of its requests.
  // Keyed by the whole header, which the holder of a valid cookie can vary at will (other
  // cookies): hence a small bound, at most 5,000 headers of up to 1 KiB (5 MiB); flooding it only
  // evicts entries, which are then checked again.
  const ids = verifiedMemo<string>(5_000, 1024);
  const cookie: Cookie = {
    name: signed.name,
    isSigned: signed.isSigned,
    // A getter in React Router's cookie too: now + maxAge at each read.
    get expires() {
      return signed.expires;
    },
    async parse(header, options) {
      if (!header || options) return signed.parse(header, options);
      const known = ids.get(header);
      if (known !== undefined) return known;
      const id: unknown = await signed.parse(header);
      if (typeof id === "string" && id) ids.remember(header, id);
      return id;
    },
    serialize: (value, options) => signed.serialize(value, options),
  };
  const listeners = new Set<(e: SessionEnded) => void>();

  /** The row key: the id's hash, so the database never holds a working session id. */
  const keyOf = (id: string) => hashToken(id);

  // The key (id hash) is authenticated with the data: a ciphertext copied to another row does
  // not decrypt there.
  function seal(key: string, data: WebSessionData): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", dataKey, iv);
    cipher.setAAD(Buffer.from(key));
    const body = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
    return `${FORMAT}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  function open(key: string, sealed: string): WebSessionData | null {
    if (!sealed.startsWith(`${FORMAT}.`)) return null;
    try {
      const raw = Buffer.from(sealed.slice(FORMAT.length + 1), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", dataKey, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(key));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      return JSON.parse(text) as WebSessionData;
    } catch {
      return null; // another SESSION_SECRET, or tampered: no session
    }
  }

  const ended = (e: SessionEnded) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure must not stop the others (or the sign-out)
      }
    }
  };

  async function readByKey(key: string): Promise<WebSession | null> {
    const row = await db.selectFrom("web_sessions").selectAll().where("id_hash", "=", key).executeTakeFirst();
    if (!row || row.expires_at <= nowSeconds()) return null;
    const data = open(key, row.data);
    return data ? { userId: row.user_id, data, expiresAt: row.expires_at } : null;
  }

  async function insert(data: WebSessionData, opts: { userId: string | null; expiresAt?: number }, trx: Db = db) {
    const id = randomBytes(24).toString("base64url");
    const key = keyOf(id);
    await trx
      .insertInto("web_sessions")
      .values({
        id_hash: key,
        user_id: opts.userId,
        data: seal(key, data),
        expires_at: opts.expiresAt ?? nowSeconds() + WEB_SESSION_SECONDS,
        created_at: nowSeconds(),
      })
      .execute();
    return id;
  }

  async function remove(id: string, trx: Db = db): Promise<SessionEnded | null> {
    const key = keyOf(id);
    const row = await trx.selectFrom("web_sessions").select("user_id").where("id_hash", "=", key).executeTakeFirst();
    await trx.deleteFrom("web_sessions").where("id_hash", "=", key).execute();
    return row ? { userId: row.user_id, key } : null;
  }

  return {
    /** The signed cookie that carries session ids (its name depends on PUBLIC_URL's scheme). */
    cookie,
    keyOf,

    /** A new session; returns its id (for the cookie only: the database keeps its hash). */
    async create(data: WebSessionData, opts: { userId: string | null; expiresAt?: number }): Promise<string> {
      // Sessions are created at sign-in and sign-out, so that is when expired ones are swept.
      await db.deleteFrom("web_sessions").where("expires_at", "<=", nowSeconds()).execute();
      return insert(data, opts);
    },

    /** The live session an id names, or null (unknown, expired, or not readable). */
    read: (id: string) => readByKey(keyOf(id)),

    /** By key (the id's hash): how the live channel re-checks a socket's session. */
    readByKey,

    async update(id: string, data: WebSessionData, opts: { userId: string | null; expiresAt?: number }) {
      const key = keyOf(id);
      await db
        .updateTable("web_sessions")
        .set({ data: seal(key, data), user_id: opts.userId, expires_at: opts.expiresAt ?? nowSeconds() + WEB_SESSION_SECONDS })
        .where("id_hash", "=", key)
        .execute();
    },

    async destroy(id: string) {
      const gone = await remove(id);
      if (gone) ended(gone);
    },

    /**
     * Ends the session `oldId` names (if any) and starts a new one with `data`, in one
     * transaction; returns the new id. At every change of who is signed in (sign-in, 2FA
     * completion, sign-out) so an id known before (planted, or copied) is worthless after.
     */
    async rotate(oldId: string | null, data: WebSessionData, opts: { userId: string | null; expiresAt?: number }) {
      const { id, gone } = await db.transaction().execute(async (trx) => ({
        gone: oldId ? await remove(oldId, trx) : null,
        id: await insert(data, opts, trx),
      }));
      if (gone) ended(gone);
      return id;
    },

    /** Signs a user out everywhere (password change; an account being disabled). */
    async destroyAllForUser(userId: string) {
      await db.deleteFrom("web_sessions").where("user_id", "=", userId).execute();
      ended({ userId, key: null });
    },

    /** The signed-in session a Cookie header carries: the live channel's authentication. */
    async fromCookieHeader(header: string | undefined | null): Promise<{ key: string; userId: string } | null> {
      if (!header) return null;
      const id: unknown = await cookie.parse(header).catch(() => null);
      if (typeof id !== "string" || !id) return null;
      const key = keyOf(id);
      const s = await readByKey(key);
      return s?.userId ? { key, userId: s.userId } : null;
    },

    /** Called whenever sessions end; returns the unsubscribe function. */
    onEnded(listener: (e: SessionEnded) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type WebSessions = ReturnType<typeof createWebSessions>;
