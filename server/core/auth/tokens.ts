// Access tokens are short JWTs (15 min, `exp` in seconds); refresh tokens are opaque random
// strings stored hashed, rotated on every use, grouped in families so that a replayed old
// token revokes every token descended from the same login. An access token names its family
// (`sid`): the sign-in it belongs to, which the step-up rules ask about (decision 017).
import { hkdfSync, randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { TokenPair } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { isDisabled } from "#server/core/admin/disabled.ts";
import { unauthorized } from "#server/core/errors.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import { verifiedMemo } from "./verified-memo.ts";

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

export function createTokenService(db: Db, sessionSecret: string) {
  // A key of its own for JWTs, derived from the one configured secret.
  const jwtKey = new Uint8Array(hkdfSync("sha256", sessionSecret, "faultline", "jwt-access-token", 32));
  // Access tokens whose signature and claims checked out (server/core/auth/verified-memo.ts).
  const verified = verifiedMemo<{ userId: string; exp: number; sid: string | null }>();

  async function accessToken(user: { id: string; username: string }, familyId: string) {
    return new SignJWT({ username: user.username, typ: "access", sid: familyId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(nowSeconds() + ACCESS_TOKEN_SECONDS)
      .setJti(randomUUID())
      .sign(jwtKey);
  }

  async function storeRefresh(userId: string, familyId: string) {
    const token = randomToken();
    await db
      .insertInto("refresh_tokens")
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        family_id: familyId,
        expires_at: nowSeconds() + REFRESH_TOKEN_SECONDS,
        revoked_at: null,
        created_at: nowSeconds(),
      })
      .execute();
    return token;
  }

  async function pair(user: { id: string; username: string }, familyId: string = randomUUID()): Promise<TokenPair> {
    return {
      access_token: await accessToken(user, familyId),
      refresh_token: await storeRefresh(user.id, familyId),
      token_type: "bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
    };
  }

  return {
    /** A new login: a new token family. */
    issue: (user: { id: string; username: string }) => pair(user),

    /** Returns the user id the access token names, or throws 401. */
    verifyAccess: async (token: string): Promise<string> => (await verifiedAccess(token)).userId,

    /** As verifyAccess, with the token's expiry (epoch seconds): the live channel closes then. */
    verifyAccessUntil: verifiedAccess,

    /** As verifyAccess, with the sign-in the token belongs to (null for a token without one). */
    verifySession: async (token: string): Promise<{ userId: string; sid: string | null }> => {
      const { userId, sid } = await verifiedAccess(token);
      return { userId, sid };
    },

    /** Rotates a refresh token. `loadUser` supplies the claims for the new access token. */
    async rotate(refreshToken: string, loadUser: (id: string) => Promise<{ id: string; username: string } | undefined>) {
      const row = await db.selectFrom("refresh_tokens").selectAll().where("token_hash", "=", hashToken(refreshToken)).executeTakeFirst();
      if (!row) throw unauthorized("Invalid refresh token");
      if (row.revoked_at !== null) {
        // A token that was already used or revoked: assume theft and end the whole family.
        await revokeFamily(row.family_id);
        throw unauthorized("Refresh token reused; please sign in again");
      }
      if (row.expires_at <= nowSeconds()) throw unauthorized("Refresh token expired");
      // Claim the row atomically so two concurrent rotations cannot both succeed.
      const claimed = await db
        .updateTable("refresh_tokens")
        .set({ revoked_at: nowSeconds() })
        .where("token_hash", "=", row.token_hash)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) {
        await revokeFamily(row.family_id);
        throw unauthorized("Refresh token reused; please sign in again");
      }
      const user = await loadUser(row.user_id);
      if (!user) throw unauthorized("Invalid refresh token");
      return pair(user, row.family_id);
    },

    /** Logout: the token's whole family ends (the login it came from). */
    async revoke(refreshToken: string) {
      const row = await db.selectFrom("refresh_tokens").select("family_id").where("token_hash", "=", hashToken(refreshToken)).executeTakeFirst();
      if (row) await revokeFamily(row.family_id);
    },

    async revokeAllForUser(userId: string) {
      await db.updateTable("refresh_tokens").set({ revoked_at: nowSeconds() }).where("user_id", "=", userId).where("revoked_at", "is", null).execute();
    },
  };

  async function verifiedAccess(token: string): Promise<{ userId: string; exp: number; sid: string | null }> {
    try {
      let claims = verified.get(token);
      if (!claims) {
        const { payload } = await jwtVerify(token, jwtKey, { algorithms: ["HS256"] });
        if (payload.typ !== "access" || typeof payload.sub !== "string" || typeof payload.exp !== "number") {
          throw new Error("not an access token");
        }
        claims = { userId: payload.sub, exp: payload.exp, sid: typeof payload.sid === "string" ? payload.sid : null };
        verified.remember(token, claims);
      }
      // Expired as jose has it (exp at or before now), on every use, remembered or not.
      if (claims.exp <= nowSeconds()) throw new Error("expired");
      // A disabled account's tokens stop working at once, not when they expire (admin console).
      if (await isDisabled(db, claims.userId)) throw new Error("account disabled");
      return claims;
    } catch {
      throw unauthorized("Invalid or expired token");
    }
  }

  async function revokeFamily(familyId: string) {
    await db.updateTable("refresh_tokens").set({ revoked_at: nowSeconds() }).where("family_id", "=", familyId).where("revoked_at", "is", null).execute();
  }
}
export type TokenService = ReturnType<typeof createTokenService>;
