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
//
// With several replicas (README, "Several replicas") each keeps that map in its own memory, read
// from the same CHALLENGES_DIR. The database holds the fingerprint of the library last written
// into the catalogue (settings 'content-fingerprint', by a reload or a replica's start); the
// replica that wrote it tells the others ("content", server/platform.ts), and each one whose map
// was loaded at another fingerprint reads the folder again (`follow`). A replica that missed the
// event (its listening connection was down) is told again when it reconnects, and compares.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Challenge } from "#server/library/challenges.ts";
import type { Audit } from "#server/core/audit.ts";
import { notFound } from "#server/core/errors.ts";
import type { ChallengeFigures, ReloadReport } from "#shared/contract/admin.ts";
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
  /** The fingerprint of `library` as loaded at start (libraryFingerprint). */
  fingerprint?: string;
  /** After a reload here: the platform tells the other replicas, which `follow`. */
  onReloaded?: () => void;
}

/** What `follow` did: whether it read the folder again, and whether this replica now holds the
 *  library the database was last given (false: its CHALLENGES_DIR differs from the writer's). */
export interface FollowReport {
  reloaded: boolean;
  inStep: boolean;
  challenges: number;
  problems: string[];
}

const FINGERPRINT_KEY = "content-fingerprint";

/** A digest of everything a replica uses from the library (texts, scripts, limits), but not the
 *  folder's path, which may differ between replicas mounting the same content. */
export function libraryFingerprint(challenges: readonly Challenge[]): string {
  const h = createHash("sha256");
  for (const { dir: _dir, ...c } of challenges) h.update(JSON.stringify(c)).update("\n");
  return h.digest("hex").slice(0, 32);
}

async function storedFingerprint(db: Db): Promise<string | undefined> {
  return (await db.selectFrom("settings").select("value").where("key", "=", FINGERPRINT_KEY).executeTakeFirst())?.value;
}

/** Records that the catalogue now holds the library with this fingerprint; true when it differs
 *  from what the database held (the other replicas should follow). */
export async function recordLibrary(db: Db, fingerprint: string): Promise<boolean> {
  const before = await storedFingerprint(db);
  if (before === fingerprint) return false;
  const now = nowSeconds();
  await db
    .insertInto("settings")
    .values({ key: FINGERPRINT_KEY, value: fingerprint, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: fingerprint, updated_at: now }))
    .execute();
  return true;
}

export function createAdminChallenges(deps: AdminChallengesDeps) {
  const { db, audit, library } = deps;
  /** The fingerprint of what `library` holds now. */
  let loaded = deps.fingerprint ?? libraryFingerprint([...library.values()]);
  /** Reloads and follows one at a time: the map is replaced whole by each. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = queue.then(job, job);
    queue = run.catch(() => {});
    return run;
  };
  const replace = (challenges: Challenge[]) => {
    library.clear();
    for (const c of challenges) library.set(c.id, c);
    loaded = libraryFingerprint(challenges);
  };

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
      await audit.record({ action: hide ? "admin.challenge_hide" : "admin.challenge_show", actorId: actor.id, target: { type: "challenge", id: c.id } });
      return { id: c.id, hidden: hide };
    },

    async reload(actor: Actor): Promise<ReloadReport> {
      const { challenges, problems, before } = await serial(async () => {
        const { challenges, problems } = deps.load();
        const before = new Set(library.keys());
        await deps.sync(challenges);
        replace(challenges);
        await recordLibrary(db, loaded);
        return { challenges, problems, before };
      });
      // Told even when the fingerprint did not change: a replica that is out of step reads again.
      deps.onReloaded?.();
      const after = new Set(challenges.map((c) => c.id));
      const report: ReloadReport = {
        loaded: [...after].sort(),
        added: [...after].filter((id) => !before.has(id)).sort(),
        removed: [...before].filter((id) => !after.has(id)).sort(),
        problems: problems.map((p) => p.message),
      };
      await audit.record({
        action: "admin.content_reload",
        actorId: actor.id,
        detail: { loaded: report.loaded.length, added: report.added, removed: report.removed, problems: report.problems.length },
      });
      return report;
    },

    /**
     * Another replica reloaded (or started with other content), or we may have missed it: when
     * the database's fingerprint is not the one our map was loaded at, read CHALLENGES_DIR again
     * into the map. The catalogue's table is left alone: the writer already filled it.
     */
    follow(): Promise<FollowReport> {
      return serial(async () => {
        const want = await storedFingerprint(db);
        if (want === undefined || want === loaded) return { reloaded: false, inStep: true, challenges: library.size, problems: [] };
        const { challenges, problems } = deps.load();
        replace(challenges);
        return { reloaded: true, inStep: loaded === want, challenges: challenges.length, problems: problems.map((p) => p.message) };
      });
    },
  };
}
export type AdminChallenges = ReturnType<typeof createAdminChallenges>;

/** Is the challenge hidden from the catalogue? (the start check asks this) */
export async function isHidden(db: Db, challengeId: string): Promise<boolean> {
  const row = await db.selectFrom("hidden_challenges").select("challenge_id").where("challenge_id", "=", challengeId).executeTakeFirst();
  return row !== undefined;
}

/** May this user have anything of this challenge (start it, its hints, its debrief)? A hidden one
 *  is for admins only: to anyone else it does not exist (each caller answers 404). */
export async function visibleTo(db: Db, userId: string, challengeId: string): Promise<boolean> {
  if (!(await isHidden(db, challengeId))) return true;
  const u = await db.selectFrom("users").select("is_admin").where("id", "=", userId).executeTakeFirst();
  return u?.is_admin === 1;
}
