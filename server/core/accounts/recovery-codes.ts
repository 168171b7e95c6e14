// Two-factor recovery codes: ten made at enrolment (or on request), shown once, kept only as
// SHA-256 hashes salted with the user id (80 random bits each: no table to precompute, nothing
// to guess), each used at most once: the update that marks it used is conditional, so two
// parallel uses of one code cannot both pass.
import { createHash, randomInt } from "node:crypto";
import { formatRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from "#shared/recovery-codes.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";

export const RECOVERY_CODE_COUNT = 10;

const hashCode = (userId: string, normalized: string) => createHash("sha256").update(`${userId}:${normalized}`).digest("hex");

function newCode(): string {
  let code = "";
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++) code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return code;
}

export function createRecoveryCodes(db: Db) {
  /** A new set for the user (the old codes stop working); the codes as they are shown. */
  async function issue(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    const t = nowSeconds();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      await trx
        .insertInto("recovery_codes")
        .values(codes.map((c) => ({ code_hash: hashCode(userId, c), user_id: userId, used_at: null, created_at: t })))
        .execute();
    });
    return codes.map(formatRecoveryCode);
  }

  /** Uses the code when it is one of the user's unused ones; true if it was. */
  async function consume(userId: string, typed: string): Promise<boolean> {
    const code = normalizeRecoveryCode(typed);
    if (!code) return false;
    const res = await db
      .updateTable("recovery_codes")
      .set({ used_at: nowSeconds() })
      .where("code_hash", "=", hashCode(userId, code))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async function left(userId: string): Promise<number> {
    const row = await db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function removeAll(userId: string): Promise<void> {
    await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  }

  return { issue, consume, left, removeAll };
}
export type RecoveryCodeStore = ReturnType<typeof createRecoveryCodes>;
