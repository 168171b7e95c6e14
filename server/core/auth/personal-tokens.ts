// Personal API tokens (docs/decisions/020-personal-api-tokens.md): made, listed and revoked by
// their owner; verified on every API request that presents one. A token is `flt_` and 32 random
// bytes (base64url); only its SHA-256 is stored, so the database never holds a usable token and
// the one answer that makes it is the only time it is seen.
//
// Verifying is one keyed read (the hash is unique) joined with disabled_users, so a revoked
// (deleted) token, an expired one and a disabled account's are refused on the very next request:
// nothing is remembered between requests (server/core/auth/verified-memo.ts is for signatures,
// which never change; a token's row does). last_used_at is written only when the row's value is
// a minute old or more, by a conditional update, so a busy token costs one write a minute across
// every replica, not one per request.
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import {
  PERSONAL_TOKEN_PATTERN,
  PERSONAL_TOKEN_PREFIX,
  PERSONAL_TOKEN_TEXTS,
  PERSONAL_TOKENS_MAX,
  type PersonalToken,
  type PersonalTokenCreated,
  type PersonalTokenExpiry,
  type CurrentPersonalToken,
} from "#shared/contract/personal-tokens.ts";
import type { PersonalTokenScope } from "#shared/contract/operation.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { LOCK_SPACE } from "#server/db/cluster.ts";
import { isPostgres } from "#server/db/locks.ts";
import { limitReached, notFound, unauthorized } from "#server/core/errors.ts";
import { hashToken } from "#server/core/secrets.ts";
import type { Audit } from "#server/core/audit.ts";

/** last_used_at moves at most this often per token. */
export const LAST_USED_EVERY_SECONDS = 60;
const DAY = 24 * 3600;

/** Who a valid personal token speaks for, and what it may do. */
export interface PersonalTokenCaller {
  userId: string;
  scope: PersonalTokenScope;
  tokenId: string;
}

export const isPersonalToken = (token: string) => token.startsWith(PERSONAL_TOKEN_PREFIX);

/** `audit`: making and revoking a token are written to the audit log (the token never is). */
export function createPersonalTokens({ db, audit }: { db: Db; audit?: Pick<Audit, "record"> }) {
  const view = (row: {
    id: string;
    name: string;
    scope: PersonalTokenScope;
    created_at: number;
    expires_at: number | null;
    last_used_at: number | null;
  }): PersonalToken => ({
    id: row.id,
    name: row.name,
    scope: row.scope,
    created_at: Number(row.created_at),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    expired: row.expires_at !== null && Number(row.expires_at) <= nowSeconds(),
  });

  const columns = ["id", "name", "scope", "created_at", "expires_at", "last_used_at"] as const;

  return {
    /** The owner's tokens, newest first (never the tokens themselves, which are not kept). */
    async list(userId: string): Promise<{ tokens: PersonalToken[] }> {
      const rows = await db.selectFrom("personal_tokens").select(columns).where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id").execute();
      return { tokens: rows.map(view) };
    },

    /** A new token for its owner; the answer carries it this once. */
    async create(userId: string, input: { name: string; scope: PersonalTokenScope; expires_in_days: PersonalTokenExpiry }): Promise<PersonalTokenCreated> {
      // One create at a time per user, so the limit holds: on PostgreSQL (across replicas) a
      // transaction-level advisory lock on the user, the count and the insert in that same
      // transaction (a waiter holds one connection and the holder needs no other); SQLite runs
      // one transaction at a time anyway.
      const made = await db.transaction().execute(async (trx) => {
        if (isPostgres(db)) await sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE.start}, hashtext(${`personal-tokens:${userId}`}))`.execute(trx);
        const now = nowSeconds();
        const live = await trx
          .selectFrom("personal_tokens")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", userId)
          .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
          .executeTakeFirstOrThrow();
        if (Number(live.n) >= PERSONAL_TOKENS_MAX) throw limitReached(PERSONAL_TOKEN_TEXTS.limit);
        const token = PERSONAL_TOKEN_PREFIX + randomBytes(32).toString("base64url");
        const row = {
          id: randomUUID(),
          user_id: userId,
          name: input.name,
          scope: input.scope,
          token_hash: hashToken(token),
          created_at: now,
          expires_at: input.expires_in_days === "none" ? null : now + Number(input.expires_in_days) * DAY,
          last_used_at: null,
        };
        await trx.insertInto("personal_tokens").values(row).execute();
        return { ...view(row), token };
      });
      await audit?.record({
        action: "api_token.created",
        actorId: userId,
        detail: { token_id: made.id, name: made.name, scope: made.scope, expires_at: made.expires_at },
      });
      return made;
    },

    /** Revokes (deletes) one of the owner's tokens; another user's is "not found". */
    async revoke(userId: string, id: string): Promise<{ message: string }> {
      const gone = await db
        .deleteFrom("personal_tokens")
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .returning(["id", "name", "scope"])
        .executeTakeFirst();
      if (!gone) throw notFound(PERSONAL_TOKEN_TEXTS.notFound);
      await audit?.record({
        action: "api_token.revoked",
        actorId: userId,
        detail: { token_id: gone.id, name: gone.name, scope: gone.scope },
      });
      return { message: PERSONAL_TOKEN_TEXTS.revoked };
    },

    /** The token a request was made with (already verified by the access guard) and its
     *  account's username; 401 if it went between the guard and this read (revoked meanwhile). */
    async current(tokenId: string): Promise<CurrentPersonalToken> {
      const row = await db
        .selectFrom("personal_tokens as t")
        .innerJoin("users as u", "u.id", "t.user_id")
        .select(["t.id", "t.name", "t.scope", "t.expires_at", "u.username"])
        .where("t.id", "=", tokenId)
        .executeTakeFirst();
      if (!row) throw unauthorized("Invalid or expired token");
      return { id: row.id, name: row.name, scope: row.scope, expires_at: row.expires_at === null ? null : Number(row.expires_at), username: row.username };
    },

    /** Who the token speaks for, or 401 (malformed, unknown, revoked, expired, account disabled). */
    async verify(token: string): Promise<PersonalTokenCaller> {
      // The shape first: anything else is refused without a database read.
      if (!PERSONAL_TOKEN_PATTERN.test(token)) throw unauthorized("Invalid or expired token");
      const row = await db
        .selectFrom("personal_tokens as t")
        .leftJoin("disabled_users as d", "d.user_id", "t.user_id")
        .select(["t.id", "t.user_id", "t.scope", "t.expires_at", "t.last_used_at", "d.user_id as disabled"])
        .where("t.token_hash", "=", hashToken(token))
        .executeTakeFirst();
      const now = nowSeconds();
      if (!row || row.disabled !== null || (row.expires_at !== null && Number(row.expires_at) <= now)) {
        throw unauthorized("Invalid or expired token");
      }
      if (row.last_used_at === null || Number(row.last_used_at) <= now - LAST_USED_EVERY_SECONDS) {
        // Conditional: of two replicas (or requests) seeing the same stale value, one writes.
        await db
          .updateTable("personal_tokens")
          .set({ last_used_at: now })
          .where("id", "=", row.id)
          .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", now - LAST_USED_EVERY_SECONDS)]))
          .execute();
      }
      return { userId: row.user_id, scope: row.scope, tokenId: row.id };
    },
  };
}
export type PersonalTokens = ReturnType<typeof createPersonalTokens>;
