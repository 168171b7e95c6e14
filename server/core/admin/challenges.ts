// The admin console's challenges: every challenge with its figures (starts, solves, success
// rate, median solve time), hiding one from the catalogue or showing it again, and reloading the
// content from CHALLENGES_DIR while the platform runs.
//
// Figures are computed in SQL that SQLite and PostgreSQL both run: counts grouped by challenge,
// and the median from window functions (row_number and count over each challenge's solve times;
// the middle row, or the mean of the two middle rows).
//
// Reloading replaces the library in place: the map the deployments and grading services read
// (so new starts use the new content) and the catalogue's table (catalogue.sync). A folder that
// does not load is reported and left out, as at start; deployments already running keep going.
import { sql } from "kysely";
import type { Db } from "../../db/index.ts";
import { nowSeconds } from "../../db/index.ts";
import type { Challenge } from "../../runtime/challenges.ts";
import type { Audit } from "../audit.ts";
import { notFound } from "../errors.ts";
import type { ChallengeFigures, ReloadReport } from "../../../shared/contract/admin.ts";
import type { Actor } from "./users.ts";

export type { ChallengeFigures, ReloadReport };

export interface AdminChallengesDeps {
  db: Db;
  audit: Audit;
  /** The map deployments and grading read: replaced in place by a reload. */
  library: Map<string, Challenge>;
  /** Reads CHALLENGES_DIR (runtime/challenges.ts loadLibrary). */
  load(): { challenges: Challenge[]; problems: { message: string }[] };
  /** Writes the given library into the catalogue's table (catalogue.sync). */
  sync(challenges: Challenge[]): Promise<unknown>;
}

export function createAdminChallenges(deps: AdminChallengesDeps) {
  const { db, audit, library } = deps;

  async function mustExist(id: string) {
    const row = await db.selectFrom("challenges").select(["id", "title"]).where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Challenge not found");
    return row;
  }

  return {
    async figures(): Promise<ChallengeFigures[]> {
      const [rows, starts, solves, medians, hidden] = await Promise.all([
        db.selectFrom("challenges").select(["id", "title", "difficulty", "category", "points", "is_approved"]).orderBy("title").execute(),
        db
          .selectFrom("deployments")
          .select((eb) => ["challenge_id", eb.fn.countAll<number>().as("n"), eb.fn.count<number>("user_id").distinct().as("users")])
          .groupBy("challenge_id")
          .execute(),
        db
          .selectFrom("solves")
          .select((eb) => ["challenge_id", eb.fn.countAll<number>().as("n")])
          .groupBy("challenge_id")
          .execute(),
        sql<{ challenge_id: string; median: number | string }>`
          select challenge_id, avg(solve_seconds * 1.0) as median from (
            select challenge_id, solve_seconds,
              row_number() over (partition by challenge_id order by solve_seconds) as rn,
              count(*) over (partition by challenge_id) as n
            from solves
          ) ranked
          where rn in ((n + 1) / 2, (n + 2) / 2)
          group by challenge_id`.execute(db),
        db.selectFrom("hidden_challenges").select("challenge_id").execute(),
      ]);
      const byId = <T extends { challenge_id: string }>(list: T[]) => new Map(list.map((x) => [x.challenge_id, x]));
      const s = byId(starts);
      const v = byId(solves);
      const m = byId(medians.rows);
      const h = new Set(hidden.map((x) => x.challenge_id));
      return rows.map((r) => {
        const starters = Number(s.get(r.id)?.users ?? 0);
        const solved = Number(v.get(r.id)?.n ?? 0);
        const median = m.get(r.id)?.median;
        return {
          id: r.id,
          title: r.title,
          difficulty: r.difficulty,
          category: r.category,
          points: r.points,
          in_library: r.is_approved === 1,
          hidden: h.has(r.id),
          starts: Number(s.get(r.id)?.n ?? 0),
          starters,
          solves: solved,
          // Solves are counted per user: a solver who never started here (data from before a
          // reset) would take the rate past 100, so it is capped.
          success_rate: starters ? Math.min(100, Math.round((solved / starters) * 1000) / 10) : null,
          median_solve_seconds: median === undefined || median === null ? null : Math.round(Number(median)),
        };
      });
    },

    async setHidden(actor: Actor, id: string, hide: boolean) {
      const c = await mustExist(id);
      if (hide) {
        await db
          .insertInto("hidden_challenges")
          .values({ challenge_id: id, hidden_at: nowSeconds() })
          .onConflict((oc) => oc.column("challenge_id").doNothing())
          .execute();
      } else {
        await db.deleteFrom("hidden_challenges").where("challenge_id", "=", id).execute();
      }
      await audit.record({ action: hide ? "admin.challenge_hide" : "admin.challenge_show", actorId: actor.id, actorName: actor.username, target: c.id });
      return { id: c.id, hidden: hide };
    },

    async reload(actor: Actor): Promise<ReloadReport> {
      const { challenges, problems } = deps.load();
      const before = new Set(library.keys());
      const after = new Set(challenges.map((c) => c.id));
      await deps.sync(challenges);
      library.clear();
      for (const c of challenges) library.set(c.id, c);
      const report: ReloadReport = {
        loaded: [...after].sort(),
        added: [...after].filter((id) => !before.has(id)).sort(),
        removed: [...before].filter((id) => !after.has(id)).sort(),
        problems: problems.map((p) => p.message),
      };
      await audit.record({
        action: "admin.content_reload",
        actorId: actor.id,
        actorName: actor.username,
        detail: { loaded: report.loaded.length, added: report.added, removed: report.removed, problems: report.problems.length },
      });
      return report;
    },
  };
}
export type AdminChallenges = ReturnType<typeof createAdminChallenges>;

/** Is the challenge hidden from the catalogue? (the start check asks this) */
export async function isHidden(db: Db, challengeId: string): Promise<boolean> {
  const row = await db.selectFrom("hidden_challenges").select("challenge_id").where("challenge_id", "=", challengeId).executeTakeFirst();
  return row !== undefined;
}
