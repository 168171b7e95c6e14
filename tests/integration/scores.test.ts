// The score tables (kept by triggers: server/db/migrations/0008_scores.ts) say exactly what
// aggregating every solve used to say. The old aggregate lives on here only, as the oracle:
// leaderboards of every period, page and search, ranks and board sizes, catalogue counts and
// home figures are compared after solves around the day, week and month boundaries, ties in
// points and in time, zero-point solves, a solve's points changed, a solve removed, a rename
// and a deleted account; searches through the trigram index and the board's range alike, with
// the user's own % _ \ taken literally; and the public cache, which serves every caller, follows
// a change made behind its back, so a signed-in player sees their own solve at once. Disabled
// accounts leave the boards and come back when enabled. A search's
// count kept against its board's version (migration 0022) follows joins, leaves and renames, and
// one left behind by a change is counted again. PostgreSQL's trigram route (the search's
// non-overlapping pieces) and deep pages from the day of their first row (migration 0023) are
// compared on these small boards too, with their thresholds lowered.
// Over 350 lines: the score tables against the old aggregate (the oracle) across every period, page
//  and search; the cases share the oracle.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicCache } from "#server/core/public-cache.ts";
import { likePattern } from "#server/db/search.ts";
import { createScoring, minutes, pgTrigramPieces, periodStart } from "#server/core/scoring.ts";
import { rebuildScores } from "#server/db/migrations/0008_scores.ts";
import { PERIODS, type Period } from "#shared/contract/index.ts";
import { createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const CHALLENGES = ["c-alpha", "c-beta", "c-gamma", "c-delta", "c-eps"];

describe.each(DATABASES)("scores on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.platform.db;

  /** The leaderboard as it was computed before decision 012: every solve of the period, per request
   *  (of accounts not disabled: a disabled account leaves the boards, migration 0021). */
  async function oracle(period: Period, now: number, search = "") {
    const since = periodStart(period, now);
    const filter = search ? sql`where lower(r.username) like ${likePattern(search)} escape '\\'` : sql``;
    const { rows } = await sql<{
      username: string;
      points: number | string;
      completed: number | string;
      avg_seconds: number | string | null;
      rank: number | string;
    }>`
      with board as (
        select s.user_id, sum(s.points) as points, count(*) as completed, avg(s.solve_seconds) as avg_seconds, max(s.solved_at) as last_at
        from solves s where s.solved_at >= ${since} and not exists (select 1 from disabled_users x where x.user_id = s.user_id)
        group by s.user_id having sum(s.points) > 0
      ), ranked as (
        select u.username, b.points, b.completed, b.avg_seconds, b.last_at, dense_rank() over (order by b.points desc) as rank
        from board b join users u on u.id = b.user_id
      )
      select r.username, r.points, r.completed, r.avg_seconds, r.rank from ranked r ${filter}
      order by r.rank, r.last_at, lower(r.username)`.execute(db());
    return rows.map((r) => ({
      rank: Number(r.rank),
      username: r.username,
      points: Number(r.points),
      challenges_completed: Number(r.completed),
      average_time: r.avg_seconds === null ? null : minutes(Number(r.avg_seconds)),
    }));
  }

  /** The old userStats rank: dense among users' all-time totals above 0. */
  async function oracleRank(total: number) {
    const { rows } = await sql<{ ranked: number | string; above: number | string }>`
      select count(*) as ranked, count(distinct case when t.total > ${total} then t.total end) as above
      from (select sum(points) as total from solves s where not exists (select 1 from disabled_users x where x.user_id = s.user_id) group by user_id) t
      where t.total > 0`.execute(db());
    return { rank: total > 0 ? Number(rows[0]!.above) + 1 : null, ranked_users: Number(rows[0]!.ranked) };
  }

  /** Kept search counts at their board's version equal a count of the board's matching players;
   *  PostgreSQL's players per level and day equal those of the buckets. */
  async function expectKeptTablesExact() {
    const kept = await db()
      .selectFrom("score_search_counts as c")
      .innerJoin("score_boards as v", (j) => j.onRef("v.period", "=", "c.period").onRef("v.start", "=", "c.start"))
      .select(["c.period", "c.start", "c.pattern", "c.total"])
      .whereRef("c.version", "=", "v.version")
      .execute();
    for (const k of kept) {
      const n = await db()
        .selectFrom("score_buckets")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("period", "=", k.period)
        .where("start", "=", k.start)
        .where("points", ">", 0)
        .where(sql<boolean>`name_key like ${k.pattern} escape '\\'`)
        .executeTakeFirstOrThrow();
      expect(Number(k.total), `${k.period} ${k.start} ${k.pattern}`).toBe(Number(n.n));
    }
    if (kind !== "postgres") return;
    const days = await sql<{ period: string; start: string; points: string; day: string; users: string }>`
      select period, start, points, day, users from score_level_days order by 1, 2, 3, 4`.execute(db());
    const want = await sql<{ period: string; start: string; points: string; day: string; users: string }>`
      select period, start, points, last_at - last_at % 86400 as day, count(*) as users from score_buckets
      where points > 0 group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(db());
    expect(days.rows.map((r) => Object.values(r).map(String))).toEqual(want.rows.map((r) => Object.values(r).map(String)));
  }

  async function expectSameAsOracle(now: number) {
    await expectKeptTablesExact();
    // PostgreSQL's trigram route and deep pages from a day, which boards this small never take.
    const lowered = createScoring({ db: db(), tuning: { pgTrigramBoard: 0, pgDaySkip: 0 } });
    for (const period of PERIODS) {
      // 1-2 characters filter the board's range; 3 and more go through the trigram index
      // (migration 0014) on SQLite, and on PostgreSQL when they hold 3 letters or digits in a row
      // ("00x", "REN"); "S_1" there keeps the range (server/core/scoring.ts, trigramSearchable).
      for (const search of ["", "S_1", "zz", "s_", "00x", "REN", "1renamed"]) {
        const want = await oracle(period, now, search);
        if (search === "" || search === "s_") expect(want.length, `${period} board`).toBeGreaterThan(1);
        // Every page, in pages of 4 (so pages start inside tie groups) and of 15.
        for (const [limit, scoring] of [
          [4, t.platform.scoring],
          [15, t.platform.scoring],
          [4, lowered],
        ] as const) {
          const got = [];
          for (let page = 1; page <= Math.ceil(want.length / limit) + 1; page++) {
            const res = await scoring.leaderboard({ period, page, limit, search, now });
            expect(res.total, `${period} "${search}" total`).toBe(want.length);
            got.push(...res.entries);
          }
          expect(got, `${period} "${search}" limit ${limit}${scoring === lowered ? " (lowered thresholds)" : ""}`).toEqual(want);
        }
      }
    }
    const users = await db().selectFrom("users").select(["id"]).execute();
    for (const u of users) {
      const stats = await t.platform.scoring.userStats(u.id);
      expect({ rank: stats.rank, ranked_users: stats.ranked_users }).toEqual(await oracleRank(stats.total_points));
    }
    const counts = await db()
      .selectFrom("solves")
      .select(["challenge_id"])
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .groupBy("challenge_id")
      .execute();
    const kept = await db().selectFrom("challenge_solves").select(["challenge_id", "solves"]).where("solves", ">", 0).execute();
    expect(Object.fromEntries(kept.map((k) => [k.challenge_id, Number(k.solves)]))).toEqual(
      Object.fromEntries(counts.map((c) => [c.challenge_id, Number(c.n)])),
    );
    const home = await t.platform.scoring.homeStats();
    const solves = await db()
      .selectFrom("solves")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const people = await db()
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect([home.solutions, home.users]).toEqual([Number(solves.n), Number(people.n)]);
  }

  const ids: string[] = [];
  async function addUsers(n: number) {
    const base = ids.length;
    for (let i = base; i < base + n; i++) {
      const name = `s_${String(i).padStart(2, "0")}${i % 3 === 0 ? "X" : "y"}`;
      const id = randomUUID();
      await db()
        .insertInto("users")
        .values({
          id,
          username: name,
          email: `${name}@example.test`,
          password_hash: null,
          display_name: null,
          bio: null,
          location: null,
          github_username: null,
          oauth_provider: null,
          ssh_public_key: null,
          ssh_key_fingerprint: null,
          totp_secret: null,
          totp_last_step: null,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      ids.push(id);
    }
  }
  const solve = (user: number, challenge: number, points: number, solvedAt: number, seconds = 61 * (user + 1)) =>
    db()
      .insertInto("solves")
      .values({ user_id: ids[user]!, challenge_id: CHALLENGES[challenge]!, deployment_id: randomUUID(), points, solve_seconds: seconds, solved_at: solvedAt })
      .execute();

  it("equal to the old aggregate across day, week and month boundaries, ties and changes", async () => {
    await addUsers(24);
    // Monday 1 June 2026, 00:00:30 UTC: a new day, week and month began 30 s ago.
    const now1 = at("2026-06-01T00:00:30Z");
    const edges = [now1 - 30, now1 - 31, now1 - 86400, now1 - 7 * 86400, now1 - 40 * 86400, now1];
    let n = 0;
    for (let u = 0; u < 20; u++) {
      for (let c = 0; c < (u % 4) + 1; c++) {
        // Points from a small set (ties), some zero (a fully hinted solve); times on the edges, and shared.
        await solve(u, c, [100, 250, 0, 500, 100][(u + c) % 5]!, edges[n++ % edges.length]!);
      }
    }
    await expectSameAsOracle(now1);

    // Wednesday 17 June, noon: the week began Monday 15 June; Sunday 14 June 23:59:59 is outside it.
    const now2 = at("2026-06-17T12:00:00Z");
    const later = [at("2026-06-15T00:00:00Z"), at("2026-06-14T23:59:59Z"), at("2026-06-17T00:00:00Z"), at("2026-06-16T23:59:59Z"), now2];
    for (let u = 4; u < 24; u++) await solve(u, 4, [250, 100, 250, 0][u % 4]!, later[u % later.length]!);
    await expectSameAsOracle(now2);

    // A solve's points changed (costed hints settle them), one removed, a rename, an account deleted.
    await db().updateTable("solves").set({ points: 1000 }).where("user_id", "=", ids[5]!).where("challenge_id", "=", CHALLENGES[0]!).execute();
    await db()
      .updateTable("solves")
      .set({ solved_at: now2 - 5 })
      .where("user_id", "=", ids[7]!)
      .where("challenge_id", "=", CHALLENGES[1]!)
      .execute();
    await db().deleteFrom("solves").where("user_id", "=", ids[6]!).where("challenge_id", "=", CHALLENGES[4]!).execute();
    await db().updateTable("users").set({ username: "S_1renamed" }).where("id", "=", ids[8]!).execute();
    await db().deleteFrom("users").where("id", "=", ids[9]!).execute();
    await expectSameAsOracle(now2);

    // Accounts disabled leave every board (one solves meanwhile: a check that was running); one
    // enabled again comes back with all its solves; a disabled account deleted takes nothing along.
    const disable = (u: number) => db().insertInto("disabled_users").values({ user_id: ids[u]!, disabled_at: now2 }).execute();
    const enable = (u: number) => db().deleteFrom("disabled_users").where("user_id", "=", ids[u]!).execute();
    const onBoard = async (u: number) => (await db().selectFrom("score_buckets").select("user_id").where("user_id", "=", ids[u]!).execute()).length > 0;
    expect(await onBoard(10)).toBe(true);
    for (const u of [10, 13, 12]) await disable(u);
    await solve(13, 2, 250, now2 - 60);
    expect([await onBoard(10), await onBoard(13)]).toEqual([false, false]);
    await expectSameAsOracle(now2);
    await enable(13);
    expect(await onBoard(13)).toBe(true);
    await db().deleteFrom("users").where("id", "=", ids[12]!).execute();
    await expectSameAsOracle(now2);

    // Rebuilt from scratch (the migration's backfill): the same tables, row for row.
    const snapshot = async () => ({
      buckets: await db().selectFrom("score_buckets").selectAll().orderBy("period").orderBy("start").orderBy("user_id").execute(),
      levels: await db().selectFrom("score_levels").selectAll().orderBy("period").orderBy("start").orderBy("points").execute(),
      days:
        kind === "postgres"
          ? await db().selectFrom("score_level_days").selectAll().orderBy("period").orderBy("start").orderBy("points").orderBy("day").execute()
          : [],
    });
    const kept = await snapshot();
    await db()
      .transaction()
      .execute((trx) => rebuildScores(trx));
    expect(await snapshot()).toEqual(kept);
    await expectSameAsOracle(now2);
  });

  it("the public cache follows a change written behind its back, and invalidate() empties it", async () => {
    const cache = createPublicCache({ db: db(), freshSeconds: 300 });
    let loads = 0;
    const read = () => cache.get("k", async () => ++loads);
    expect([await read(), await read()]).toEqual([1, 1]);
    await addUsers(1);
    await solve(ids.length - 1, 0, 100, at("2026-06-17T11:00:00Z"));
    expect(await read()).toBe(2);
    await db().insertInto("hidden_challenges").values({ challenge_id: "c-alpha", hidden_at: 1 }).execute();
    expect(await read()).toBe(3);
    cache.invalidate();
    expect(await read()).toBe(4);
    expect(await read()).toBe(4);
  });

  it("anonymous leaderboard reads come from the cache yet see a new solve at once", async () => {
    await addUsers(1);
    const me = ids.length - 1;
    const board = async () => (await t.call("GET", "/leaderboard?limit=100")).body.entries as { rank: number; points: number }[];
    expect(await board()).toEqual(await board());
    expect((await board()).find((e) => e.points === 5000)).toBeUndefined();
    await solve(me, 3, 5000, Math.floor(Date.now() / 1000));
    expect((await board())[0]).toMatchObject({ rank: 1, points: 5000 });
  });

  it("a search matches a case-insensitive substring of the name, % _ \\ literally, and keeps board ranks", async () => {
    // Names a wildcard reading would confuse: "%" and "_" match any text in LIKE, "\\" escapes.
    const names = ["pct%name", "pctxname", "der_name", "derxname", "back\\slash", "Back_Slash", "plain"];
    const first = ids.length;
    await addUsers(names.length);
    for (const [i, name] of names.entries()) {
      await db()
        .updateTable("users")
        .set({ username: name })
        .where("id", "=", ids[first + i]!)
        .execute();
      await solve(first + i, 0, 7000 + 10 * i, at("2026-06-17T11:00:00Z"));
    }
    const full = await t.platform.scoring.leaderboard({ limit: 100 });
    const rankOf = new Map(full.entries.map((e) => [e.username, e.rank]));
    const found = async (search: string) => {
      const res = await t.platform.scoring.leaderboard({ limit: 100, search });
      expect(res.total, search).toBe(res.entries.length);
      for (const e of res.entries) expect(e.rank, `${search}: ${e.username}`).toBe(rankOf.get(e.username));
      return res.entries.map((e) => e.username).sort();
    };
    expect(await found("%")).toEqual(["pct%name"]);
    expect(await found("T%N")).toEqual(["pct%name"]);
    expect(await found("t%name")).toEqual(["pct%name"]);
    expect(await found("r_n")).toEqual(["der_name"]);
    expect(await found("K_s")).toEqual(["Back_Slash"]);
    expect(await found("der_nam")).toEqual(["der_name"]);
    expect(await found("DER_NAME")).toEqual(["der_name"]);
    expect(await found("k\\s")).toEqual(["back\\slash"]);
    expect(await found("\\")).toEqual(["back\\slash"]);
    expect(await found("back")).toEqual(["Back_Slash", "back\\slash"]);
    expect(await found("slash")).toEqual(["Back_Slash", "back\\slash"]);
    expect(await found('pl"ain')).toEqual([]);
    expect(await found("nothing-like-it")).toEqual([]);
    // Ranks are the board's: the highest of these (7060 points) leads the whole board.
    expect((await t.platform.scoring.leaderboard({ search: "plain" })).entries[0]).toMatchObject({ rank: rankOf.get("plain"), points: 7060 });
  });

  it("a search's count follows players joining, leaving and renamed on its board, and holds across other solves", async () => {
    // "qj" (2 characters) filters the board's range; its count is kept against the board's
    // version (migration 0015), which a solve by a player already on the board does not move, and
    // moved by triggers with it as players join, leave or are renamed (migration 0022).
    const scoring = t.platform.scoring;
    // Now: the oracle counts every solve since the period's start, and other tests solve now.
    const now = Math.floor(Date.now() / 1000);
    const first = ids.length;
    await addUsers(4);
    const rename = (i: number, name: string) =>
      db()
        .updateTable("users")
        .set({ username: name })
        .where("id", "=", ids[first + i]!)
        .execute();
    for (const [i, name] of ["qja1", "qjb2", "zzc3", "qjd4"].entries()) await rename(i, name);
    await solve(first, 0, 300, now - 60);
    await solve(first + 1, 0, 200, now - 60);
    await solve(first + 2, 0, 100, now - 60);
    const version = async () =>
      Number(
        (await db().selectFrom("score_boards").select("version").where("period", "=", "all_time").where("start", "=", 0).executeTakeFirst())?.version ?? 0,
      );
    // The all-time count as kept, before any read: at the board's version and exact after a change.
    const keptCount = async () =>
      (await db()
        .selectFrom("score_search_counts")
        .select(["total", "version"])
        .where("period", "=", "all_time")
        .where("start", "=", 0)
        .where("pattern", "=", likePattern("qj"))
        .executeTakeFirst()) ?? null;
    const expectKept = async (step: string) => {
      const k = await keptCount();
      expect(k && Number(k.version), `${step}: kept at the board's version`).toBe(await version());
      expect(Number(k!.total), step).toBe((await oracle("all_time", now, "qj")).length);
      await expectKeptTablesExact();
    };
    const expectSearch = async (step: string, names: string[], keptBefore = true) => {
      if (keptBefore) await expectKept(step);
      for (const period of ["all_time", "today"] as const) {
        const res = await scoring.leaderboard({ period, search: "qj", limit: 100, now });
        const want = await oracle(period, now, "qj");
        expect(res.entries, `${step}, ${period}`).toEqual(want);
        expect(res.total, `${step}, ${period}`).toBe(want.length);
      }
      expect(
        (await scoring.leaderboard({ search: "qj", limit: 100, now })).entries
          .map((e) => e.username)
          .filter((n) => n.startsWith("qj"))
          .sort(),
        step,
      ).toEqual(names);
    };
    await expectSearch("two players", ["qja1", "qjb2"], false);
    // Solves by players on the board: ranks and points move, the board's players do not.
    const before = await version();
    await solve(first + 1, 1, 500, now - 30);
    await solve(first + 2, 1, 500, now - 30);
    expect(await version()).toBe(before);
    await expectSearch("after solves by players on the board", ["qja1", "qjb2"]);
    await rename(2, "qjc3");
    await expectSearch("a player renamed into the search", ["qja1", "qjb2", "qjc3"]);
    await solve(first + 3, 0, 50, now - 10);
    await expectSearch("a new player's first solve", ["qja1", "qjb2", "qjc3", "qjd4"]);
    await db().deleteFrom("solves").where("user_id", "=", ids[first]!).execute();
    await expectSearch("a player's solves removed", ["qjb2", "qjc3", "qjd4"]);
    await db()
      .deleteFrom("users")
      .where("id", "=", ids[first + 1]!)
      .execute();
    await expectSearch("an account deleted", ["qjc3", "qjd4"]);
    await rename(3, "zzd4");
    await expectSearch("a player renamed out of it", ["qjc3"]);
    expect(await version()).toBeGreaterThan(before);
    // A count written by a read that raced a change is one version behind: never used, counted again.
    await db()
      .updateTable("score_search_counts")
      .set((eb) => ({ total: 999, version: eb("version", "-", 1) }))
      .where("pattern", "=", likePattern("qj"))
      .execute();
    await expectSearch("a count left behind", ["qjc3"], false);
    await expectKept("counted again");
    // Forgotten (the bench's first ask): counted again and kept.
    await scoring.forgetSearchCounts();
    expect(await keptCount()).toBeNull();
    await expectSearch("forgotten", ["qjc3"], false);
    await expectKept("kept again");
  });

  it("PostgreSQL's trigram pieces: each run of 3 letters or digits cut into non-overlapping pieces", () => {
    expect(pgTrigramPieces("AmberFox")).toEqual(["amb", "erf", "fox"]);
    expect(pgTrigramPieces("amber")).toEqual(["amb", "ber"]);
    expect(pgTrigramPieces("red_fox-9")).toEqual(["red", "fox"]);
    expect(pgTrigramPieces("s_1")).toEqual([]);
    expect(pgTrigramPieces("aaaaaa")).toEqual(["aaa"]);
  });

  it("a name holding every 3-character piece of a search but not the search is not found", async () => {
    // SQLite asks its trigram index for names holding the search's pieces ("abc", "def"); the
    // substring match decides.
    await addUsers(2);
    await db()
      .updateTable("users")
      .set({ username: "defabc_q" })
      .where("id", "=", ids[ids.length - 2]!)
      .execute();
    await db()
      .updateTable("users")
      .set({ username: "abcdef_q" })
      .where("id", "=", ids[ids.length - 1]!)
      .execute();
    await solve(ids.length - 2, 0, 100, at("2026-06-17T11:00:00Z"));
    await solve(ids.length - 1, 0, 100, at("2026-06-17T11:00:00Z"));
    const names = async (search: string) => (await t.platform.scoring.leaderboard({ search, limit: 100 })).entries.map((e) => e.username);
    expect(await names("abcdef")).toEqual(["abcdef_q"]);
    expect(await names("DEFABC")).toEqual(["defabc_q"]);
    expect(await names("cdef_")).toEqual(["abcdef_q"]);
    expect(await names("abc")).toEqual(expect.arrayContaining(["abcdef_q", "defabc_q"]));
    // PostgreSQL's trigram route asks for the same pieces.
    const lowered = createScoring({ db: db(), tuning: { pgTrigramBoard: 0 } });
    const viaPieces = async (search: string) => (await lowered.leaderboard({ search, limit: 100 })).entries.map((e) => e.username);
    expect(await viaPieces("abcdef")).toEqual(["abcdef_q"]);
    expect(await viaPieces("DEFABC")).toEqual(["defabc_q"]);
    expect(await viaPieces("cdef_")).toEqual(["abcdef_q"]);
  });

  it("a signed-in player's board comes from the shared cache and shows their own solve at once", async () => {
    const player = await t.registerVerified();
    const { access_token: token } = await t.login(player);
    const board = async (caller?: string) => {
      const res = await t.call("GET", "/leaderboard?limit=100", { token: caller });
      expect(res.status).toBe(200);
      return res;
    };
    const before = await board(token);
    expect(before.body.entries.find((e: { username: string }) => e.username === player.username)).toBeUndefined();
    // Only an anonymous answer may be kept by a browser or proxy.
    expect(before.headers.get("cache-control") ?? "").not.toMatch(/public|max-age/);
    expect((await board()).headers.get("cache-control")).toMatch(/max-age=300/);
    // Served from the cache: a change to the score rows that bypasses the change counter (no
    // real writer does this) is not seen by the next signed-in read.
    await db().updateTable("score_buckets").set({ username: "not-seen" }).where("period", "=", "all_time").where("start", "=", 0).execute();
    expect((await board(token)).body).toEqual(before.body);
    await rebuildScores(db());
    // The player solves (grading inserts the solve row; the score triggers do the rest): their
    // next read of the board has them on it, first with 9000 points.
    const me = await db().selectFrom("users").select("id").where("username", "=", player.username).executeTakeFirstOrThrow();
    await db()
      .insertInto("solves")
      .values({
        user_id: me.id,
        challenge_id: CHALLENGES[1]!,
        deployment_id: randomUUID(),
        points: 9000,
        solve_seconds: 120,
        solved_at: Math.floor(Date.now() / 1000),
      })
      .execute();
    expect((await board(token)).body.entries[0]).toMatchObject({ rank: 1, username: player.username, points: 9000 });
  });
});
