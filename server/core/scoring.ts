// Scoring: points, ranks, levels and achievements. A user's own figures come from their rows in
// `solves` (one per challenge solved; grading inserts them); boards, ranks and counts come from
// the score tables that triggers keep as solves change (server/db/migrations/0008_scores.ts), so
// no read aggregates every solve. No HTTP here.
// Over 350 lines: every read of the score tables (boards and their searches, ranks, profiles, home
//  figures) beside the rules they share (periods, levels, trigram search); the achievements and
//  constants at the top are what the rest reads.
import { type ExpressionBuilder, PostgresAdapter, type SqlBool, sql } from "kysely";
import type { Achievement, Activity, HomeStats, LeaderboardPage, Period, SolvedChallenge } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import type { Database } from "#server/db/schema.ts";
import { nowSeconds } from "#server/db/index.ts";
import { isDisabled } from "./admin/disabled.ts";
import { likePattern } from "#server/db/search.ts";
import { SEARCH_COUNTS_PER_BOARD } from "#server/db/migrations/0022_search_counts.ts";
import { notFound } from "./errors.ts";

export const POINTS_PER_LEVEL = 1000;
/** A search matching more names than this filters the board's range instead (each is looked up
 *  by primary key; ~7 ms of lookups at this many on SQLite). */
const MAX_TRIGRAM_MATCHES = 1500;
/** ...and one matching no more than this many always takes the trigram index (a small board is
 *  cheap either way; a name found among few is cheap on any board). */
const MIN_TRIGRAM_MATCHES = 50;
/** PostgreSQL: boards smaller than this are filtered whole without asking the trigram index.
 *  Filtering the board index costs ~0.2 µs a player (under 1 ms at 5,000), a name's lookup
 *  about as much (0.7 ms for a full username at 100,000 players), and a word's lookup reads
 *  every name holding it (12 ms for one in 7,600 names): on a board this small the range is
 *  never much dearer and often far cheaper. */
export const PG_TRIGRAM_BOARD = 5000;
/** PostgreSQL: a deep page skipping more than this many rows of its points level starts at the
 *  day of its first row (score_level_days, migration 0023); fewer are skipped in the index. */
const PG_DAY_SKIP = 500;

export interface UserStats {
  total_points: number;
  /** Dense rank by points among users with points; null without points. */
  rank: number | null;
  /** How many users have a rank (more than 0 points). */
  ranked_users: number;
  challenges_completed: number;
  /** Challenges the user got an environment for (or solved): what the solve rate divides by. */
  challenges_attempted: number;
  /** completed / attempted as a whole percent; null when nothing was attempted. */
  solve_rate: number | null;
  /** Average solve time in minutes, one decimal; null without solves. */
  average_time: number | null;
  level: number;
  achievements: Achievement[];
}

/** The definitions; `unlocked` and `unlocked_at` are computed per user. Icons are plain symbols a
 * monospace font carries (no colour emoji font needed). */
export const ACHIEVEMENTS: Omit<Achievement, "unlocked" | "unlocked_at">[] = [
  { id: "first-blood", icon: "⚑", title: "First Blood", description: "Complete your first challenge", xp: 100 },
  { id: "speed-demon", icon: "⚡", title: "Speed Demon", description: "Keep your average solve time under 5 minutes", xp: 250 },
  { id: "point-collector", icon: "◆", title: "Point Collector", description: "Earn 1000 points", xp: 500 },
];
export const SPEED_DEMON_SECONDS = 5 * 60;
export const POINT_COLLECTOR_POINTS = 1000;

export const levelOf = (points: number) => Math.floor(points / POINTS_PER_LEVEL);
export const minutes = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

/** Start (epoch seconds, UTC) of a leaderboard period: calendar day, ISO week (Monday), month. */
export function periodStart(period: Period, now = nowSeconds()): number {
  if (period === "all_time") return 0;
  const d = new Date(now * 1000);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === "today") return day / 1000;
  if (period === "this_week") return day / 1000 - ((d.getUTCDay() + 6) % 7) * 86400;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

/** Achievements from one user's solves, oldest first. */
export function achievementsOf(solves: { points: number; solve_seconds: number; solved_at: number }[]): Achievement[] {
  let points = 0;
  let seconds = 0;
  let collectorAt: number | undefined;
  let fastSince: number | undefined;
  solves.forEach((s, i) => {
    points += s.points;
    seconds += s.solve_seconds;
    if (collectorAt === undefined && points >= POINT_COLLECTOR_POINTS) collectorAt = s.solved_at;
    // Speed Demon holds while the running average stays under 5 minutes; it dates from the
    // solve after which it has held since.
    if (seconds / (i + 1) < SPEED_DEMON_SECONDS) fastSince ??= s.solved_at;
    else fastSince = undefined;
  });
  const at: Record<Achievement["id"], number | undefined> = {
    "first-blood": solves[0]?.solved_at,
    "speed-demon": fastSince,
    "point-collector": collectorAt,
  };
  return ACHIEVEMENTS.map((a) => {
    const when = at[a.id];
    return when === undefined ? { ...a, unlocked: false } : { ...a, unlocked: true, unlocked_at: when };
  });
}

/** Thresholds a test lowers to send small boards through PostgreSQL's trigram and day routes. */
export interface ScoringTuning {
  /** PG_TRIGRAM_BOARD */
  pgTrigramBoard?: number;
  /** PG_DAY_SKIP */
  pgDaySkip?: number;
}

export function createScoring({ db, tuning = {} }: { db: Db; tuning?: ScoringTuning }) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const { pgTrigramBoard = PG_TRIGRAM_BOARD, pgDaySkip = PG_DAY_SKIP } = tuning;

  /** SQLite: the user_name_keys ids (FTS5 rowids) of the names that may hold `search`, at most
   *  `most`, from the trigram index (the caller's LIKE keeps only those that do). Stops at
   *  `most`, so a search found in every name costs no more than that. */
  async function trigramIds(search: string, most: number): Promise<number[]> {
    const rows = await db
      .selectFrom("user_name_trigrams")
      .select("rowid")
      .where(sql<SqlBool>`user_name_trigrams match ${trigramQuery(search)}`)
      .limit(most)
      .execute();
    return rows.map((r) => Number(r.rowid));
  }

  /** PostgreSQL: how many users' lower(username) match `pattern`, and the ids of at most `most`
   *  of them, through pg_trgm's GIN index (a bitmap of the candidates, their rows rechecked). All
   *  the matches are read, with no LIMIT: under a LIMIT the planner prices a scan of users in
   *  their order as stopping early once it has that many, and chose it for a word in many names
   *  (a read of the whole table when its guess of how many match is too high). Without one it
   *  weighs a full read of users against the bitmap of the matches, which wins unless a search is
   *  in a large part of all names. */
  async function trigramUserIds(search: string, most: number): Promise<{ ids: string[]; matches: number }> {
    // The index is asked for the search's non-overlapping pieces (pgTrigramPieces), each a LIKE
    // of one trigram: GIN reads the list of names holding each trigram of its conditions, the
    // whole search ~3 times as many. strpos, which the index does not serve, keeps the names
    // holding the search itself (the same test as `like '%search%'`: the search taken literally).
    const r = await db
      .selectFrom("users as u")
      .select([sql<number | string>`count(*)`.as("matches"), sql<string[] | null>`(array_agg(u.id))[1:cast(${most} as integer)]`.as("ids")])
      .where((eb) => eb.and(pgTrigramPieces(search).map((p) => sql<SqlBool>`lower(u.username) like ${likePattern(p)}`)))
      .where(sql<SqlBool>`strpos(lower(u.username), ${search.toLowerCase()}) > 0`)
      .executeTakeFirst();
    return { ids: r?.ids ?? [], matches: Number(r?.matches ?? 0) };
  }

  /**
   * The version of a board's players and their names (score_boards, migration 0015; 0 before its
   * first change), and the search's count on it when one is kept at that version (migration
   * 0022: triggers move it with every join, leave and rename on the board, so it is known after
   * them too). Counting a search that filters the board's range walks the whole board (14 ms of
   * CPU for a word in 7 % of 95,000 names); a kept count is a primary key read.
   */
  async function searchState(period: Period, start: number, pattern: string): Promise<{ version: number; known: number | null }> {
    // One statement, so one snapshot: a count and the board's version read apart could straddle
    // a change (the count moved by it, the version read before it) and look one apart.
    const kept = (eb: ExpressionBuilder<Database, never>) =>
      eb.selectFrom("score_search_counts").where("period", "=", period).where("start", "=", start).where("pattern", "=", pattern);
    const r = await db
      .selectNoFrom((eb) => [
        eb.selectFrom("score_boards").select("version").where("period", "=", period).where("start", "=", start).as("version"),
        kept(eb).select("total").as("total"),
        kept(eb).select("version").as("counted"),
      ])
      .executeTakeFirst();
    const version = Number(r?.version ?? 0);
    return { version, known: r?.total != null && Number(r.counted) === version ? Number(r.total) : null };
  }

  /**
   * Keeps a search's count on a board at the version read before it was counted (a change
   * meanwhile leaves it one behind the board's, so it is counted again). At most
   * SEARCH_COUNTS_PER_BOARD per board, the oldest go, and those of the period's earlier buckets.
   * Only a saving for later reads: a failure to write it does not fail this one.
   */
  async function rememberCount(period: Period, start: number, pattern: string, version: number, total: number): Promise<void> {
    const now = Date.now();
    try {
      await db
        .insertInto("score_search_counts")
        .values({ period, start, pattern, total, version, counted_at: now })
        .onConflict((oc) => oc.columns(["period", "start", "pattern"]).doUpdateSet({ total, version, counted_at: now }))
        .execute();
      await db.deleteFrom("score_search_counts").where("period", "=", period).where("start", "<", start).execute();
      const oldest = await db
        .selectFrom("score_search_counts")
        .select("counted_at")
        .where("period", "=", period)
        .where("start", "=", start)
        .orderBy("counted_at", "desc")
        .limit(1)
        .offset(SEARCH_COUNTS_PER_BOARD)
        .executeTakeFirst();
      if (oldest)
        await db
          .deleteFrom("score_search_counts")
          .where("period", "=", period)
          .where("start", "=", start)
          .where("counted_at", "<=", oldest.counted_at)
          .execute();
    } catch {
      // Counted again next time.
    }
  }

  async function userIdOf(username: string): Promise<{ id: string; created_at: number }> {
    const u = await db
      .selectFrom("users")
      .select(["id", "created_at"])
      .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", username.toLowerCase()))
      .executeTakeFirst();
    // Public pages of a user: none for a disabled account (profile.ts says the same).
    if (!u || (await isDisabled(db, u.id))) throw notFound("User not found");
    return { id: u.id, created_at: u.created_at };
  }

  /**
   * Within one bucket: how many distinct totals lie above `points` (a dense rank is that plus
   * one) and how many users have a total above 0. Reads score_levels, a few hundred rows at most.
   */
  async function standing(period: Period, start: number, points: number): Promise<{ above: number; ranked: number }> {
    const r = await db
      .selectFrom("score_levels")
      .select((eb) => [
        eb.fn.sum<number | string>(eb.case().when("points", ">", points).then(1).else(0).end()).as("above"),
        eb.fn.sum<number | string>("users").as("ranked"),
      ])
      .where("period", "=", period)
      .where("start", "=", start)
      .executeTakeFirst();
    return { above: Number(r?.above ?? 0), ranked: Number(r?.ranked ?? 0) };
  }

  /**
   * PostgreSQL: a page starting `skip` rows into the points level `points` (a deep page), from the
   * day of its first row: the level's players per day of their last solve (score_level_days,
   * migration 0023) say how many rows lie before that day, so only that day's rows before the
   * page are walked in the board index (the level's order within is the last solve's time, then
   * the name). A page running past the level's end goes on into the levels below. Null where it
   * does not apply (SQLite, a skip within the level too short to be worth it): the caller skips
   * in the index.
   */
  async function dayPage(period: Period, start: number, points: number | null, skip: number, limit: number) {
    if (!postgres || points === null || skip < pgDaySkip) return null;
    const days = await db
      .selectFrom("score_level_days")
      .select(["day", "users"])
      .where("period", "=", period)
      .where("start", "=", start)
      .where("points", "=", points)
      .orderBy("day")
      .execute();
    let before = 0;
    const from = days.find((d) => {
      if (before + Number(d.users) > skip) return true;
      before += Number(d.users);
      return false;
    });
    if (!from) return null;
    const columns = ["b.username", "b.points", "b.solves", "b.seconds"] as const;
    const inBoard = db.selectFrom("score_buckets as b").select(columns).where("b.period", "=", period).where("b.start", "=", start);
    const rows = await inBoard
      .where("b.points", "=", points)
      .where("b.last_at", ">=", Number(from.day))
      .orderBy("b.last_at")
      .orderBy("b.name_key")
      .limit(limit)
      .offset(skip - before)
      .execute();
    if (rows.length === limit) return rows;
    const below = await inBoard
      .where("b.points", "<", points)
      .where("b.points", ">", 0)
      .orderBy("b.points", "desc")
      .orderBy("b.last_at")
      .orderBy("b.name_key")
      .limit(limit - rows.length)
      .execute();
    return [...rows, ...below];
  }

  const solvesOf = (userId: string) =>
    db
      .selectFrom("solves")
      .select(["challenge_id", "points", "solve_seconds", "solved_at"])
      .where("user_id", "=", userId)
      .orderBy("solved_at")
      .orderBy("challenge_id")
      .execute();

  return {
    /** Forgets the kept search counts (a bench measuring what a search costs the first time it
     *  is asked on a board; tests). */
    async forgetSearchCounts(): Promise<void> {
      await db.deleteFrom("score_search_counts").execute();
    },

    /**
     * One user's points, rank, level and achievements: two small queries (the user's solves,
     * and one aggregate for the rank). Grading calls it right after a correct submission.
     */
    async userStats(userId: string): Promise<UserStats> {
      const solves = await solvesOf(userId);
      const total = solves.reduce((n, s) => n + s.points, 0);
      const seconds = solves.reduce((n, s) => n + s.solve_seconds, 0);
      const { above, ranked } = await standing("all_time", 0, total);
      // Attempted: a deployment that reached the user (ready), or a solve (fixtures have no deployment).
      const tried = await db
        .selectFrom("deployments")
        .select("challenge_id")
        .distinct()
        .where("user_id", "=", userId)
        .where("ready_at", "is not", null)
        .execute();
      const attempted = new Set([...tried.map((d) => d.challenge_id), ...solves.map((s) => s.challenge_id)]).size;
      return {
        total_points: total,
        rank: total > 0 ? above + 1 : null,
        ranked_users: ranked,
        challenges_completed: solves.length,
        challenges_attempted: attempted,
        solve_rate: solveRate(solves.length, attempted),
        average_time: solves.length ? minutes(seconds / solves.length) : null,
        level: levelOf(total),
        achievements: achievementsOf(solves),
      };
    },

    /**
     * Points earned inside the period; dense ranks over the whole board (ties share a rank, the
     * next rank follows on). A search filters by username and keeps each entry's board rank.
     */
    async leaderboard(q: { page?: number; limit?: number; period?: Period; search?: string; now?: number }): Promise<LeaderboardPage> {
      const page = Math.max(1, q.page ?? 1);
      const limit = Math.max(1, q.limit ?? 15);
      const period = q.period ?? "all_time";
      const start = periodStart(period, q.now);
      const search = q.search?.trim() ?? "";
      // The bucket's points levels, highest first (a few hundred rows at most): a total's dense
      // rank is its position here, the board's size their sum, and a deep page starts inside the
      // level that holds its first row, so the index range it skips stays within that level.
      // A search also reads the board's version (migration 0015) first, before anything it
      // counts: a change after this read can only make a count remembered now look older.
      const pattern = likePattern(search);
      const [levelRows, state] = await Promise.all([
        db.selectFrom("score_levels").select(["points", "users"]).where("period", "=", period).where("start", "=", start).orderBy("points", "desc").execute(),
        search ? searchState(period, start, pattern) : null,
      ]);
      const levels = levelRows.map((l) => ({ points: Number(l.points), users: Number(l.users) }));
      const rankOf = new Map(levels.map((l, i) => [l.points, i + 1]));
      const ranked = levels.reduce((n, l) => n + l.users, 0);
      let skip = (page - 1) * limit;
      let atMost: number | null = null;
      if (!search) {
        let ahead = 0;
        for (const l of levels) {
          if (ahead + l.users > skip) {
            if (ahead > 0) [atMost, skip] = [l.points, skip - ahead];
            break;
          }
          ahead += l.users;
        }
      }
      // The bucket's rows in board order (index score_buckets_board). A search keeps each
      // entry's board rank and matches a case-insensitive substring of the username (name_key is
      // lower(username); the user's own % _ \ are literal), by one of two routes:
      //   range     filter the bucket's board index range on name_key (no table row read for the
      //             count; the page stops after its rows). Costs ~0.13 µs per player of the
      //             board: 12 ms at 95,000.
      //   trigrams  the players whose name matches, from the trigram index (migration 0014), each
      //             looked up in the bucket by primary key: ~4.7 µs per match (SQLite, 100,000
      //             players), so it wins while the matches are fewer than about a 36th of the
      //             board. A name, or part of one, is a few matches: microseconds, whatever the
      //             board's size.
      // A trigram index cannot serve a search of 1 or 2 characters (no trigram in it): those take
      // the range. On SQLite, the number of matches decides, read from the trigram index up to
      // a 64th of the board (within MIN_ and MAX_TRIGRAM_MATCHES); a search as common as a word in many names ("amber":
      // 7,500 names of 100,000) takes the range. PostgreSQL reads all the matches from pg_trgm's
      // index and decides by the same rule (left to choose within one query, its planner read
      // the whole all-time bucket's rows for "amber": 0.8 s at 100,000 players). A range's count
      // is kept in the database (searchState above, migration 0022) and moved by triggers as
      // players join, leave or are renamed: after the first time a search is read on a board,
      // its next reads cost its page, not another count. Repeats of the same page come from the
      // public cache.
      // A search that took the board's range before, its count kept at the board's version: its
      // page is the range's.
      const version = state?.version ?? null;
      const known = state?.known ?? null;
      let trigrams = search !== "" && known === null && trigramSearchable(search, postgres);
      // The matches, when few enough: SQLite's FTS5 rowids, PostgreSQL's user ids.
      let ids: number[] | null = null;
      let userIds: string[] | null = null;
      if (trigrams) {
        const most = Math.min(MAX_TRIGRAM_MATCHES, Math.max(MIN_TRIGRAM_MATCHES, Math.floor(ranked / 64)));
        if (postgres) {
          // A board of a few thousand is filtered whole for about what a name's lookup costs.
          const found = ranked >= pgTrigramBoard ? await trigramUserIds(search, most) : null;
          userIds = found?.ids ?? null;
          trigrams = found !== null && found.matches <= most;
        } else {
          ids = await trigramIds(search, most + 1);
          trigrams = ids.length <= most;
        }
      }
      const bucket = db.selectFrom("score_buckets as b");
      // SQLite: the matches drive the join (CROSS JOIN keeps that order in SQLite): each id to
      // its user by integer key, then the bucket by primary key. Left to itself, the planner
      // walks the board range and tests each row against the list once it has more than a few.
      const byIds =
        trigrams && ids !== null
          ? (db
              .selectFrom(sql<{ value: number }>`json_each(${JSON.stringify(ids)})`.as("j"))
              .crossJoin("user_name_keys as k")
              .crossJoin("score_buckets as b")
              .whereRef("k.id", "=", "j.value")
              .whereRef("b.user_id", "=", "k.user_id") as unknown as typeof bucket)
          : bucket;
      const board = byIds
        .where("b.period", "=", period)
        .where("b.start", "=", start)
        .where("b.points", ">", 0)
        .$if(search !== "", (w) => w.where(sql<SqlBool>`b.name_key like ${pattern} escape '\\'`))
        // PostgreSQL: the matching users' ids, each looked up by the bucket's primary key.
        .$if(trigrams && userIds !== null && userIds.length > 0, (w) => w.where("b.user_id", "in", userIds!));
      const pageOf = (q: typeof board) =>
        q
          .select(["b.username", "b.points", "b.solves", "b.seconds"])
          .$if(atMost !== null, (w) => w.where("b.points", "<=", atMost!))
          .orderBy("b.points", "desc")
          .orderBy("b.last_at")
          .orderBy("b.name_key")
          .limit(limit)
          .offset(skip);
      const countOf = () =>
        board
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst()
          .then((r) => Number(r?.n ?? 0));
      let rows: { username: string; points: number; solves: number; seconds: number }[];
      let total: number;
      if (!search) {
        // The board's size is the levels' sum; past the end there is nothing to read.
        [rows, total] = [skip >= ranked ? [] : ((await dayPage(period, start, atMost, skip, limit)) ?? (await pageOf(board).execute())), ranked];
      } else if (trigrams && (ids ?? userIds)!.length === 0) {
        [rows, total] = [[], 0];
      } else if (trigrams) {
        // One pass over the matches: the page and, beside each row, how many there are. A page
        // past the end has no row to carry the count: then it is counted alone.
        const found = await pageOf(board)
          .select(sql<number>`count(*) over ()`.as("matches"))
          .execute();
        rows = found;
        total = found.length ? Number(found[0]!.matches) : skip > 0 ? await countOf() : 0;
      } else {
        [rows, total] = await Promise.all([known !== null && skip >= known ? [] : pageOf(board).execute(), known ?? countOf()]);
        if (known === null) await rememberCount(period, start, pattern, version!, total);
      }
      return {
        entries: rows.map((r) => ({
          rank: rankOf.get(Number(r.points)) ?? levels.length + 1,
          username: r.username,
          points: Number(r.points),
          challenges_completed: Number(r.solves),
          average_time: Number(r.solves) > 0 ? minutes(Number(r.seconds) / Number(r.solves)) : null,
        })),
        total,
        page,
        limit,
        period,
      };
    },

    /** The challenges a user solved, newest first, with points, time and date. */
    async userChallenges(username: string): Promise<{ challenges: SolvedChallenge[] }> {
      const u = await userIdOf(username);
      const rows = await db
        .selectFrom("solves as s")
        .leftJoin("challenges as c", "c.id", "s.challenge_id")
        .select(["s.challenge_id", "s.points", "s.solve_seconds", "s.solved_at", "c.title", "c.difficulty", "c.category"])
        .where("s.user_id", "=", u.id)
        .orderBy("s.solved_at", "desc")
        .orderBy("s.challenge_id")
        .execute();
      return {
        challenges: rows.map((r) => ({
          id: r.challenge_id,
          uid: r.challenge_id,
          title: r.title ?? r.challenge_id,
          difficulty_level: r.difficulty ?? null,
          category: r.category ?? null,
          points: r.points,
          solve_seconds: r.solve_seconds,
          solve_time_minutes: minutes(r.solve_seconds),
          solved_at: r.solved_at,
        })),
      };
    },

    /** The profile's Overview: solves and unlocked achievements, newest first, then the join. */
    async recentActivity(username: string, limit = 20): Promise<{ activity: Activity[] }> {
      const u = await userIdOf(username);
      const solves = await solvesOf(u.id);
      const titles = new Map(
        solves.length
          ? (
              await db
                .selectFrom("challenges")
                .select(["id", "title"])
                .where(
                  "id",
                  "in",
                  solves.map((s) => s.challenge_id),
                )
                .execute()
            ).map((c) => [c.id, c.title])
          : [],
      );
      const items: Activity[] = [
        ...solves.map((s) => ({
          type: "solve" as const,
          at: s.solved_at,
          challenge_id: s.challenge_id,
          title: titles.get(s.challenge_id) ?? s.challenge_id,
          points: s.points,
          solve_seconds: s.solve_seconds,
        })),
        ...achievementsOf(solves)
          .filter((a) => a.unlocked)
          .map((a) => ({ type: "achievement" as const, at: a.unlocked_at!, achievement_id: a.id, icon: a.icon, title: a.title, xp: a.xp })),
      ];
      // Newest first; at the same second an achievement follows (shows above) the solve behind it.
      // (Array.prototype.sort is stable: achievements keep their definition order.)
      const shownFirst = (a: Activity) => (a.type === "achievement" ? 0 : 1);
      items.sort((a, b) => b.at - a.at || shownFirst(a) - shownFirst(b));
      const activity = items.slice(0, limit);
      if (activity.length < limit) activity.push({ type: "joined", at: u.created_at });
      return { activity };
    },

    /** The home page's strip: challenges offered, correct solutions, registered users (counters). */
    async homeStats(): Promise<HomeStats> {
      // One key lookup per figure (the counters table is tiny, but a scan of it is still a scan).
      const counter = (eb: ExpressionBuilder<Database, never>, name: "users" | "solves") =>
        eb.selectFrom("score_counters").select("n").where("name", "=", name);
      const [c, counters] = await Promise.all([
        db
          .selectFrom("challenges")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("is_approved", "=", 1)
          .executeTakeFirst(),
        db.selectNoFrom((eb) => [counter(eb, "users").as("users"), counter(eb, "solves").as("solves")]).executeTakeFirst(),
      ]);
      return { challenges: Number(c?.n ?? 0), solutions: Number(counters?.solves ?? 0), users: Number(counters?.users ?? 0) };
    },
  };
}
export type Scoring = ReturnType<typeof createScoring>;

/**
 * Whether the trigram index can find the names containing `search`. SQLite's FTS5 trigram index
 * needs 3 characters. pg_trgm takes trigrams from runs of letters and digits only (`_` and `-`
 * split words), and a run inside a `%…%` pattern yields trigrams only from 3 characters on: a
 * search without such a run would read the whole GIN index, so it keeps the board's range instead.
 */
export function trigramSearchable(search: string, postgres: boolean): boolean {
  return postgres ? /[\p{L}\p{N}]{3}/u.test(search) : [...search].length >= 3;
}

/**
 * PostgreSQL: the pieces of `search` pg_trgm's index is asked for, each 3 letters or digits: every
 * run of 3 or more letters and digits (pg_trgm takes trigrams from such runs only) cut into
 * pieces of 3 that cover it once, as trigramQuery does for SQLite (the last piece overlapping the
 * one before). A name holding the search holds each piece; the caller's substring test decides.
 */
export function pgTrigramPieces(search: string): string[] {
  const pieces: string[] = [];
  for (const run of search.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 3 <= chars.length; i += 3) pieces.push(chars.slice(i, i + 3).join(""));
    if (chars.length % 3) pieces.push(chars.slice(-3).join(""));
  }
  return [...new Set(pieces)];
}

/**
 * SQLite FTS5 query for the names that may contain `search` (3 characters or more): the search
 * cut into pieces of 3 characters that cover it once (the last piece overlapping the one before
 * when the length is not a multiple of 3), each a quoted trigram, all required. FTS5 reads the
 * whole list of names holding each trigram it is given: the search as one phrase would read all
 * n - 2 of its trigrams' lists (every list of a common word's trigrams: ~1 ms for a full
 * username at 100,000 players), these pieces a third of them. A name holding every piece but not
 * the search (pieces in another order) is dropped by the caller's LIKE, which stays the rule.
 */
export function trigramQuery(search: string): string {
  const chars = [...search.toLowerCase()];
  const pieces: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 3) pieces.push(chars.slice(i, i + 3).join(""));
  if (chars.length % 3) pieces.push(chars.slice(-3).join(""));
  return pieces.map((p) => `"${p.replace(/"/g, '""')}"`).join(" AND ");
}

/** completed / attempted as a whole percent; null ("–" on the profile) when nothing was attempted. */
export function solveRate(completed: number, attempted: number): number | null {
  return attempted > 0 ? Math.round((Math.min(completed, attempted) / attempted) * 100) : null;
}

/** Stats of a user without solves (and the shape before scoring is wired). */
export const NO_STATS: UserStats = {
  total_points: 0,
  rank: null,
  ranked_users: 0,
  challenges_completed: 0,
  challenges_attempted: 0,
  solve_rate: null,
  average_time: null,
  level: 0,
  achievements: achievementsOf([]),
};
