// A disabled account leaves the leaderboards (disabled users' profiles are hidden, and
// the boards named them still). Its score buckets go when an admin disables it and come back,
// recomputed from its solves, when the account is enabled again; a solve recorded meanwhile (a
// check that was running when the account was disabled) adds no bucket. Triggers, in the
// transaction of the change, as the rest of the score upkeep (0008): the bucket triggers keep the
// levels and the board versions (0015), so ranks and searches stay exact.
import { type Kysely, type Migration, sql } from "kysely";
import { bucketStart, bump, createTrigger, dialectOf, SCORE_PERIODS, solvesRules } from "./0008_scores.ts";

/** The condition on a user `u` for having buckets at all. */
const ON_BOARD = "not exists (select 1 from disabled_users x where x.user_id = u.id)";

export const disabledOffBoard0021: Migration = {
  async up(db: Kysely<any>) {
    const d = dialectOf(db);
    // The solves triggers of 0008 (its first three rules, same names), now skipping disabled users.
    for (const [i, r] of solvesRules(d, ON_BOARD).entries()) {
      const name = `scores_${r.table}_${r.event}_${i}`;
      if (d === "sqlite") await sql.raw(`drop trigger ${name}`).execute(db);
      else {
        await sql.raw(`drop trigger ${name} on ${r.table}`).execute(db);
        await sql.raw(`drop function ${name}()`).execute(db);
      }
      await createTrigger(db, name, r);
    }
    await createTrigger(db, "scores_disabled_users_insert", {
      table: "disabled_users",
      event: "insert",
      steps: [`delete from score_buckets where user_id = new.user_id`, bump([], 0)],
    });
    await createTrigger(db, "scores_disabled_users_delete", {
      table: "disabled_users",
      event: "delete",
      steps: [
        ...SCORE_PERIODS.map((p) => {
          const start = bucketStart(d, p, "s.solved_at");
          return `insert into score_buckets (period, start, user_id, username, name_key, points, solves, seconds, last_at)
            select '${p}', ${start}, u.id, u.username, lower(u.username), sum(s.points), count(*), sum(s.solve_seconds), max(s.solved_at)
            from users u join solves s on s.user_id = u.id
            where u.id = old.user_id and ${ON_BOARD}
            group by ${p === "all_time" ? "" : `${start}, `}u.id, u.username`;
        }),
        bump([], 0),
      ],
    });
    // Accounts disabled before this migration leave the boards now.
    await sql`delete from score_buckets where user_id in (select user_id from disabled_users)`.execute(db);
  },
};
