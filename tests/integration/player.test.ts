// The player's reads: catalogue (filters and search in the database, the catalogue's fallbacks),
// leaderboard (periods, dense ranks across pages, search keeping ranks), profiles' points, rank,
// level and achievements, solved challenges, activity, home figures. Solving needs Docker, so
// solves (and most users) are inserted directly as fixtures; everything is read through the API.
// Over 350 lines: the player's reads share one set of fixtures (users and solves) that every case
//  checks against.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogue } from "#server/core/catalogue.ts";
import { periodStart } from "#server/core/scoring.ts";
import { nowSeconds } from "#server/db/index.ts";
import { loadChallenges } from "#server/library/challenges.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform, unique } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

// The catalogue these tests count: two known challenges, whatever else challenges/ holds.
const CONTENT = challengesFixture(["nginx-broken-config", "disk-full-deleted-log"]);

const LONG = "A very long description of a broken thing that keeps going well past one hundred characters so the fallback cuts it somewhere.";

describe.each(DATABASES)("player reads on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind, { challengesDir: CONTENT });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.platform.db;

  /** A user row made directly (no argon2, no mail): the leaderboard needs many. */
  async function user(name = unique("p"), createdAt = nowSeconds(), into = db()) {
    const id = randomUUID();
    await into
      .insertInto("users")
      .values({
        id,
        username: name,
        email: `${name.toLowerCase()}@example.test`,
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
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    return { id, username: name };
  }

  async function challenge(id: string, over: Record<string, unknown> = {}) {
    await db()
      .insertInto("challenges")
      .values({
        id,
        title: `Fixture ${id}`,
        category: "networking",
        difficulty: "hard",
        points: 300,
        estimated_time_minutes: null,
        short_description: null,
        description: LONG,
        instructions: "",
        hints: "[]",
        tags: "[]",
        badge: null,
        incident_note: null,
        created_at: nowSeconds(),
        updated_at: nowSeconds(),
        ...over,
      })
      .execute();
  }

  async function solve(userId: string, challengeId: string, points: number, solveSeconds = 600, solvedAt = nowSeconds() - 5) {
    await db()
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: challengeId, deployment_id: randomUUID(), points, solve_seconds: solveSeconds, solved_at: solvedAt })
      .execute();
  }

  describe("catalogue", () => {
    beforeAll(async () => {
      await challenge("zz-fallbacks", { title: "Fallback 50%_off" });
      await challenge("zz-timed", {
        title: "Timed one",
        category: "security",
        difficulty: "expert",
        points: 900,
        estimated_time_minutes: 45,
        short_description: "Given short text",
        description: "Something about certificates expiring at midnight.",
        tags: JSON.stringify(["tls", "certificates"]),
        badge: "new",
        incident_note: "A real outage once.",
        votes: 7,
      });
    });

    it("lists approved challenges with the contract's fields (shared/contract/catalogue.ts), badges and incident notes from content", async () => {
      const res = await t.call("GET", "/challenges/?limit=100&is_approved=true&order_by=votes");
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.challenges.map((c: any) => [c.uid, c]));
      const nginx = byId["nginx-broken-config"];
      expect(nginx).toMatchObject({
        uid: "nginx-broken-config",
        id: "nginx-broken-config",
        title: "The shop is down: nginx will not start",
        difficulty_level: "easy",
        points: 100,
        category: "linux",
        estimated_time_minutes: 15,
        badge: "popular",
        is_approved: true,
        solves: 0,
      });
      expect(nginx.incident_note).toMatch(/nginx -t/);
      // Hint texts stay on the server until revealed (tests/integration/hints.test.ts): a count only.
      expect(nginx.hint_count).toBeGreaterThan(0);
      expect(nginx).not.toHaveProperty("hints");
      expect(nginx.tags).toContain("nginx");
      expect(typeof nginx.instructions).toBe("string");
      expect(byId["disk-full-deleted-log"].badge).toBe("trending");
      // order_by=votes: the most voted first.
      expect(res.body.challenges[0].uid).toBe("zz-timed");
    });

    it("applies the fallbacks: short description = first 100 characters + ellipsis, time 30", async () => {
      const res = await t.call("GET", "/challenges/zz-fallbacks");
      expect(res.status).toBe(200);
      expect(res.body.short_description).toBe(`${LONG.slice(0, 100)}…`);
      expect(res.body.estimated_time_minutes).toBe(30);
      expect(res.body).toMatchObject({ badge: null, incident_note: null, hint_count: 0, tags: [] });
      const timed = await t.call("GET", "/challenges/zz-timed");
      expect(timed.body).toMatchObject({ short_description: "Given short text", estimated_time_minutes: 45, badge: "new" });
    });

    it("searches title, description and tags case-insensitively, with % and _ taken literally", async () => {
      const ids = async (q: string) => ((await t.call("GET", `/challenges/?${q}`)).body.challenges as any[]).map((c) => c.uid).sort();
      expect(await ids("search=NGINX")).toEqual(["nginx-broken-config"]);
      expect(await ids("search=Midnight")).toEqual(["zz-timed"]); // description
      expect(await ids("search=lsof")).toEqual(["disk-full-deleted-log"]); // tag
      expect(await ids("search=CERTIFICATES")).toEqual(["zz-timed"]);
      expect(await ids(`search=${encodeURIComponent("50%_off")}`)).toEqual(["zz-fallbacks"]);
      expect(await ids(`search=${encodeURIComponent("%")}`)).toEqual(["zz-fallbacks"]);
      expect(await ids("search=_")).toEqual(["zz-fallbacks"]);
      expect(await ids("search=nothing-like-this")).toEqual([]);
      expect(await ids("search=")).toHaveLength(4);
    });

    it("filters by category and difficulty (any case, All = no filter) and orders as asked", async () => {
      const list = async (q: string) => (await t.call("GET", `/challenges/?${q}`)).body.challenges as any[];
      expect((await list("category=Storage")).map((c) => c.uid)).toEqual(["disk-full-deleted-log"]);
      expect((await list("category=linux&difficulty=easy")).map((c) => c.uid)).toEqual(["nginx-broken-config"]);
      expect((await list("category=linux&difficulty=hard")).map((c) => c.uid)).toEqual([]);
      expect((await list("difficulty=expert")).map((c) => c.uid)).toEqual(["zz-timed"]);
      expect(await list("category=All&difficulty=all")).toHaveLength(4);
      expect((await list("category=kubernetes")).length).toBe(0);
      expect((await list("order_by=points")).map((c) => c.points)).toEqual([900, 300, 200, 100]);
      expect((await list("order_by=difficulty")).map((c) => c.difficulty_level)).toEqual(["easy", "medium", "hard", "expert"]);
      expect((await list("order_by=title")).map((c) => c.title)).toEqual([
        "Fallback 50%_off",
        "No space left on device, but the disk is empty",
        "The shop is down: nginx will not start",
        "Timed one",
      ]);
      expect(await list("limit=3")).toHaveLength(3);
    });

    it("sync retires a vanished folder (kept for its solves, out of the list) and brings it back", async () => {
      const all = loadChallenges(CONTENT);
      const u = await user();
      await solve(u.id, "disk-full-deleted-log", 200);
      const partial = createCatalogue({ db: db(), challenges: all.filter((c) => c.id !== "disk-full-deleted-log") });
      await partial.sync();
      try {
        const listed = (await t.call("GET", "/challenges/")).body.challenges.map((c: any) => c.uid);
        expect(listed).not.toContain("disk-full-deleted-log");
        const retired = (await t.call("GET", "/challenges/?is_approved=false")).body.challenges.map((c: any) => c.uid);
        expect(retired).toContain("disk-full-deleted-log");
        const one = await t.call("GET", "/challenges/disk-full-deleted-log");
        expect(one.body).toMatchObject({ is_approved: false, solves: 1 });
        expect((await t.call("GET", `/users/${u.username}/challenges/`)).body.challenges[0].title).toBe("No space left on device, but the disk is empty");
      } finally {
        await createCatalogue({ db: db(), challenges: all }).sync();
      }
      expect((await t.call("GET", "/challenges/disk-full-deleted-log")).body.is_approved).toBe(true);
    });

    it("answers 404 'Challenge not found' for an unknown challenge", async () => {
      expectError(await t.call("GET", "/challenges/no-such-thing"), 404, "Challenge not found");
      expectError(await t.call("GET", "/challenges/NOT%20AN%20ID"), 404, "Challenge not found");
    });

    it("refuses bad query values with a 400 naming the field", async () => {
      expectError(await t.call("GET", "/challenges/?limit=0"), 400, "limit: must be at least 1");
      expectError(await t.call("GET", "/challenges/?limit=101"), 400, "limit: must be at most 100");
      expectError(await t.call("GET", "/challenges/?limit=ten"), 400, /^limit: /);
      expectError(await t.call("GET", "/challenges/?order_by=random"), 400, /^order_by: must be one of votes, points/);
      expectError(await t.call("GET", "/challenges/?difficulty=insane"), 400, /^difficulty: /);
      expectError(await t.call("GET", "/challenges/?category=cooking"), 400, /^category: /);
      expectError(await t.call("GET", "/challenges/?is_approved=maybe"), 400, "is_approved: must be true or false");
      expectError(await t.call("GET", `/challenges/?search=${"x".repeat(101)}`), 400, "search: must be at most 100 characters");
    });

    it("marks anonymous list reads fresh for 5 minutes, never a signed-in caller's", async () => {
      const anon = await t.call("GET", "/challenges/");
      expect(anon.headers.get("cache-control")).toBe("public, max-age=300");
      const signed = await t.call("GET", "/challenges/", { headers: { authorization: "Bearer x" } });
      expect(signed.headers.get("cache-control")).toBe("no-store");
    });
  });

  describe("leaderboard", () => {
    let lt: TestPlatform;
    const ldb = () => lt.platform.db;
    const prefix = `lb${Math.random().toString(36).slice(2, 6)}`;
    // 20 users: points 2000, 2000, 1900, 1900, 1800, ... (pairs tie) → dense ranks 1,1,2,2,3,...
    const board: { username: string; points: number; rank: number; id: string }[] = [];

    beforeAll(async () => {
      lt = await createTestPlatform(kind, { challengesDir: CONTENT });
      const old = nowSeconds() - 40 * 86400;
      for (let i = 0; i < 20; i++) {
        const name = `${prefix}_${String(i).padStart(2, "0")}`;
        const { id } = await user(name, old, ldb());
        const points = 2000 - Math.floor(i / 2) * 100;
        // Old solves: they count for all time only.
        await ldb()
          .insertInto("solves")
          .values({ user_id: id, challenge_id: "nginx-broken-config", deployment_id: randomUUID(), points, solve_seconds: 60 * (i + 1), solved_at: old + i })
          .execute();
        board.push({ username: name, points, rank: Math.floor(i / 2) + 1, id });
      }
    });
    afterAll(async () => {
      await lt?.close();
    });
    const get = async (q: string) => {
      const res = await lt.call("GET", `/leaderboard?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    it("ranks densely over the whole board, across pages", async () => {
      const p1 = await get("page=1&limit=15&period=all_time");
      expect(p1).toMatchObject({ total: 20, page: 1, limit: 15, period: "all_time" });
      expect(p1.entries).toHaveLength(15);
      expect(p1.entries[0]).toEqual({ rank: 1, username: board[0]!.username, points: 2000, challenges_completed: 1, average_time: 1 });
      expect(p1.entries.map((e: any) => e.rank)).toEqual(board.slice(0, 15).map((b) => b.rank));
      const p2 = await get("page=2&limit=15");
      expect(p2.entries.map((e: any) => [e.username, e.rank, e.points])).toEqual(board.slice(15).map((b) => [b.username, b.rank, b.points]));
      expect(p2.entries[0].rank).toBe(8); // not 1: the page does not restart the ranks
      expect((await get("page=3&limit=15")).entries).toEqual([]);
      // Default page size is 15 (docs/api.md, GET /leaderboard).
      expect((await get("")).entries).toHaveLength(15);
    });

    it("search filters by username and keeps each entry's board rank", async () => {
      const target = board[13]!;
      const res = await get(`search=${target.username.toUpperCase()}`);
      expect(res.total).toBe(1);
      expect(res.entries).toEqual([{ rank: target.rank, username: target.username, points: target.points, challenges_completed: 1, average_time: 14 }]);
      const some = await get(`search=${prefix}_1&limit=5`);
      expect(some.total).toBe(10); // _10 ... _19
      expect(some.entries.map((e: any) => e.rank)).toEqual([6, 6, 7, 7, 8]);
      expect((await get("search=nobody-has-this-name")).entries).toEqual([]);
    });

    it("periods count only the points earned inside them", async () => {
      const now = nowSeconds();
      const todayStart = periodStart("today", now);
      const yesterday = todayStart - 3600;
      // #19 (last, 1100 all time) earns 5000 today; #18 earns 300 yesterday (in this week/month
      // unless today starts one).
      await ldb()
        .insertInto("solves")
        .values([
          { user_id: board[19]!.id, challenge_id: "disk-full-deleted-log", deployment_id: randomUUID(), points: 5000, solve_seconds: 90, solved_at: now - 1 },
          { user_id: board[18]!.id, challenge_id: "disk-full-deleted-log", deployment_id: randomUUID(), points: 300, solve_seconds: 30, solved_at: yesterday },
        ])
        .execute();
      const today = await get("period=today");
      expect(today.total).toBe(1);
      expect(today.entries).toEqual([{ rank: 1, username: board[19]!.username, points: 5000, challenges_completed: 1, average_time: 1.5 }]);
      for (const period of ["this_week", "this_month"] as const) {
        const res = await get(`period=${period}`);
        const yesterdayCounts = yesterday >= periodStart(period, now);
        expect(res.total).toBe(yesterdayCounts ? 2 : 1);
        expect(res.entries[0]).toMatchObject({ rank: 1, username: board[19]!.username, points: 5000 });
        if (yesterdayCounts) expect(res.entries[1]).toMatchObject({ rank: 2, username: board[18]!.username, points: 300 });
      }
      const all = await get("period=all_time&limit=3");
      expect(all.entries[0]).toMatchObject({ rank: 1, username: board[19]!.username, points: 6100, challenges_completed: 2 });
      expect(all.entries[1]).toMatchObject({ rank: 2, points: 2000 });
    });

    it("refuses bad query values with a 400 naming the field", async () => {
      const bad = (q: string) => lt.call("GET", `/leaderboard?${q}`);
      expectError(await bad("limit=101"), 400, "limit: must be at most 100");
      expectError(await bad("limit=0"), 400, "limit: must be at least 1");
      expectError(await bad("page=0"), 400, "page: must be at least 1");
      expectError(await bad("page=two"), 400, /^page: /);
      expectError(await bad("period=yesterday"), 400, "period: must be one of all_time, this_month, this_week, today");
    });
  });

  describe("profiles: points, rank, level, achievements", () => {
    it("a user without solves: zeros, no rank, every achievement locked", async () => {
      const u = await user();
      const res = await t.call("GET", `/users/${u.username}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total_points: 0, rank: null, challenges_completed: 0, average_time: null, level: 0 });
      expect(res.body.achievements.map((a: any) => [a.title, a.unlocked])).toEqual([
        ["First Blood", false],
        ["Speed Demon", false],
        ["Point Collector", false],
      ]);
      for (const a of res.body.achievements) {
        expect(Object.keys(a).sort()).toEqual(["description", "icon", "id", "title", "unlocked", "xp"]);
      }
    });

    it("thresholds: First Blood at one solve, Speed Demon under 5 minutes, Point Collector and level 1 at 1000", async () => {
      const u = await user();
      const t0 = nowSeconds() - 1000;
      await challenge(`${u.username.toLowerCase().replace(/_/g, "-")}-a`);
      await solve(u.id, "nginx-broken-config", 999, 300, t0); // exactly 5 minutes: not under
      let me = (await t.call("GET", `/users/${u.username}`)).body;
      const ach = (id: string) => me.achievements.find((a: any) => a.id === id);
      expect(me).toMatchObject({ total_points: 999, level: 0, challenges_completed: 1, average_time: 5 });
      expect(ach("first-blood")).toMatchObject({ unlocked: true, unlocked_at: t0, icon: expect.any(String), xp: expect.any(Number) });
      expect(ach("speed-demon").unlocked).toBe(false);
      expect(ach("point-collector").unlocked).toBe(false);

      await solve(u.id, "disk-full-deleted-log", 1, 290, t0 + 10); // total 1000; average 295 s
      me = (await t.call("GET", `/users/${u.username}`)).body;
      expect(me).toMatchObject({ total_points: 1000, level: 1, challenges_completed: 2, average_time: 4.9 });
      expect(ach("speed-demon")).toMatchObject({ unlocked: true, unlocked_at: t0 + 10 });
      expect(ach("point-collector")).toMatchObject({ unlocked: true, unlocked_at: t0 + 10 });
      expect(me.rank).toBeGreaterThanOrEqual(1);
      expect(me.ranked_users).toBeGreaterThanOrEqual(me.rank);
    });

    it("rank is dense among users with points, in the public and the own view", async () => {
      // A fresh board on its own platform so the figures are exact.
      const p = await createTestPlatform(kind, { challengesDir: CONTENT });
      try {
        const signed = await p.register();
        const { access_token } = await p.login(signed);
        const meRow = await p.platform.db.selectFrom("users").select("id").where("username", "=", signed.username).executeTakeFirstOrThrow();
        const other = async (points: number) => {
          const { id } = await user(unique("r"), 1, p.platform.db);
          await p.platform.db
            .insertInto("solves")
            .values({ user_id: id, challenge_id: "nginx-broken-config", deployment_id: randomUUID(), points, solve_seconds: 100, solved_at: 100 })
            .execute();
        };
        await other(500);
        await other(500);
        await other(300);
        const own = async () => (await p.call("GET", "/users/me", { token: access_token })).body;
        expect(await own()).toMatchObject({ rank: null, ranked_users: 3, total_points: 0 });
        await p.platform.db
          .insertInto("solves")
          .values({ user_id: meRow.id, challenge_id: "nginx-broken-config", deployment_id: randomUUID(), points: 300, solve_seconds: 100, solved_at: 200 })
          .execute();
        expect(await own()).toMatchObject({ rank: 2, ranked_users: 4, total_points: 300, level: 0 });
        expect((await p.call("GET", "/auth/validate", { token: access_token })).body).toMatchObject({ rank: 2, total_points: 300 });
        expect((await p.call("GET", `/users/${signed.username}`)).body).toMatchObject({ rank: 2, ranked_users: 4, challenges_completed: 1 });
        expect(await p.platform.scoring.userStats(meRow.id)).toMatchObject({ rank: 2, ranked_users: 4 });
      } finally {
        await p.close();
      }
    });

    it("lists solved challenges with time and date, newest first; 404 for an unknown user", async () => {
      const u = await user();
      await solve(u.id, "nginx-broken-config", 100, 754, 1_700_000_000);
      await solve(u.id, "disk-full-deleted-log", 200, 120, 1_700_000_500);
      const res = await t.call("GET", `/users/${u.username.toUpperCase()}/challenges/`);
      expect(res.status).toBe(200);
      expect(res.body.challenges).toEqual([
        {
          id: "disk-full-deleted-log",
          uid: "disk-full-deleted-log",
          title: "No space left on device, but the disk is empty",
          difficulty_level: "medium",
          category: "storage",
          points: 200,
          solve_seconds: 120,
          solve_time_minutes: 2,
          solved_at: 1_700_000_500,
        },
        expect.objectContaining({ id: "nginx-broken-config", points: 100, solve_seconds: 754, solve_time_minutes: 12.6, solved_at: 1_700_000_000 }),
      ]);
      expectError(await t.call("GET", "/users/nobody_here_at_all/challenges/"), 404, "User not found");
      expectError(await t.call("GET", "/users/nobody_here_at_all/activity"), 404, "User not found");
    });

    it("recent activity: solves and unlocked achievements newest first, then the join", async () => {
      const u = await user(unique("act"), 1_600_000_000);
      const empty = await t.call("GET", `/users/${u.username}/activity`);
      expect(empty.body.activity).toEqual([{ type: "joined", at: 1_600_000_000 }]);
      await solve(u.id, "nginx-broken-config", 100, 200, 1_700_000_000);
      const res = await t.call("GET", `/users/${u.username}/activity`);
      expect(res.body.activity.map((a: any) => [a.type, a.title ?? null])).toEqual([
        ["achievement", "First Blood"],
        ["achievement", "Speed Demon"],
        ["solve", "The shop is down: nginx will not start"],
        ["joined", null],
      ]);
      expect(res.body.activity[2]).toMatchObject({ challenge_id: "nginx-broken-config", points: 100, at: 1_700_000_000 });
    });
  });

  it("home figures count approved challenges, correct solutions and users", async () => {
    const p = await createTestPlatform(kind, { challengesDir: CONTENT });
    try {
      expect((await p.call("GET", "/stats")).body).toEqual({ challenges: 2, solutions: 0, users: 0 });
      await p.register();
      const u = await p.register();
      const row = await p.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow();
      await p.platform.db
        .insertInto("solves")
        .values({ user_id: row.id, challenge_id: "nginx-broken-config", deployment_id: randomUUID(), points: 100, solve_seconds: 60, solved_at: 1 })
        .execute();
      expect((await p.call("GET", "/stats")).body).toEqual({ challenges: 2, solutions: 1, users: 2 });
    } finally {
      await p.close();
    }
  });
});
