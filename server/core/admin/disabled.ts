// Whether an account is disabled (the admin console's users page disables and enables them):
// sign-in, token checks, profiles and the board ask this. A leaf, so that everything that reads
// it does not depend on the admin console's services.
import type { Db } from "#server/db/index.ts";

/** Is the account disabled? */
export async function isDisabled(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("disabled_users").select("user_id").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}
