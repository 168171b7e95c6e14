// What a player's answers may take (docs/decisions/016-per-user-bounds.md): every graded
// submission is stored with its text (up to SOLUTION_MAX, 16 KiB) and the check's feedback, at
// up to 6 a minute, so a player could grow the database by over 100 MB a day. Only the newest
// SUBMISSIONS_KEPT of each player are kept; grading removes older ones in the transaction that
// stores a new one. Solves (points, the board) are rows of their own and never go with them.
import type { Kysely } from "kysely";
import type { Database } from "#server/db/schema.ts";

export const SUBMISSIONS_KEPT = 200;

/** Removes the player's submissions older than their newest `keep` (same-second ties kept). */
export async function pruneSubmissions(db: Kysely<Database>, userId: string, keep = SUBMISSIONS_KEPT): Promise<void> {
  const oldestKept = await db
    .selectFrom("submissions")
    .select("created_at")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(1)
    .offset(keep - 1)
    .executeTakeFirst();
  if (oldestKept) await db.deleteFrom("submissions").where("user_id", "=", userId).where("created_at", "<", oldestKept.created_at).execute();
}
