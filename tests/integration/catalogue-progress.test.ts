// The catalogue's progress, paging and counts (issue 24): each challenge marked solved, attempted
// or new for the signed-in caller alone, the solved/unsolved filter, the most-solved order, pages
// past 100 over a generated catalogue of 250, the counts per category under the other filters,
// and hostile query values refused with the API's 400. Solves, deployments and submissions are
// inserted directly (solving needs Docker); everything is read through the API.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowSeconds } from "#server/db/index.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";
import { expectError } from "./assertions.ts";

const GENERATED = 250;
const CATEGORIES = ["linux", "storage", "networking", "security"] as const;
const DIFFICULTIES = ["easy", "medium", "hard", "expert"] as const;

describe.each(DATABASES)("catalogue progress on %s", (kind) => {
  let t: TestPlatform;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const db = () => t.platform.db;
  const id = (i: number) => `gen-${String(i).padStart(3, "0")}`;

  beforeAll(async () => {
    // An empty library: the catalogue is only what this file generates.
    t = await createTestPlatform(kind, { challengesDir: challengesFixture([]) });
    const now = nowSeconds();
    const rows = Array.from({ length: GENERATED }, (_, i) => ({
      id: id(i),
      title: `Generated ${id(i)}`,
      category: CATEGORIES[i % CATEGORIES.length]!,
      difficulty: DIFFICULTIES[i % DIFFICULTIES.length]!,
      points: 100 + (i % 7) * 50,
      estimated_time_minutes: null,
      short_description: null,
      description: i === 7 ? "The one about a needle in a haystack." : "A generated broken system.",
      instructions: "",
      hints: "[]",
      tags: "[]",
      badge: null,
      incident_note: null,
      created_at: now - GENERATED + i,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 50)
      await db()
        .insertInto("challenges")
        .values(rows.slice(i, i + 50))
        .execute();
    const signUp = async () => {
      const u = await t.registerVerified();
      const login = await t.login(u);
      const me = await t.call("GET", "/users/me", { token: login.access_token });
      return { id: me.body.id as string, token: login.access_token as string };
    };
    alice = await signUp();
    bob = await signUp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function solve(userId: string, challengeId: string) {
    await db()
      .insertInto("solves")
      .values({ user_id: userId, challenge_id: challengeId, deployment_id: randomUUID(), points: 100, solve_seconds: 60, solved_at: nowSeconds() })
      .execute();
  }
  async function deploy(userId: string, challengeId: string) {
    const deploymentId = randomUUID();
    const now = nowSeconds();
    await db()
      .insertInto("deployments")
      .values({
        id: deploymentId,
        user_id: userId,
        challenge_id: challengeId,
        status: "terminated",
        error_message: null,
        ssh_user: "root",
        container_id: null,
        scenario_values: null,
        active_key: null,
        created_at: now,
        ready_at: null,
        expires_at: now,
        ended_at: now,
        updated_at: now,
      })
      .execute();
    return deploymentId;
  }
  async function submit(userId: string, challengeId: string, deploymentId = randomUUID()) {
    await db()
      .insertInto("submissions")
      .values({
        id: randomUUID(),
        user_id: userId,
        challenge_id: challengeId,
        deployment_id: deploymentId,
        solution: "a guess",
        is_correct: 0,
        feedback: "no",
        created_at: nowSeconds(),
      })
      .execute();
  }

  const list = async (q: string, token?: string) => {
    const res = await t.call("GET", `/challenges/?${q}`, token ? { token } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { challenges: any[]; total: number; page: number; limit: number; categories: { category: string; count: number }[] };
  };
  const progressOf = (body: { challenges: any[] }) => Object.fromEntries(body.challenges.map((c) => [c.uid, c.progress]));

  describe("paging", () => {
    it("pages past 100: every challenge once over the pages, the total on each, empty past the end", async () => {
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const body = await list(`limit=100&page=${page}&order_by=newest`);
        expect(body).toMatchObject({ total: GENERATED, page, limit: 100 });
        expect(body.challenges).toHaveLength(page < 3 ? 100 : GENERATED - 200);
        seen.push(...body.challenges.map((c) => c.uid));
      }
      expect(new Set(seen).size).toBe(GENERATED);
      // newest first: created_at descends over the page boundaries.
      expect(seen[0]).toBe(id(GENERATED - 1));
      expect(seen[99]).toBe(id(GENERATED - 100));
      expect(seen[100]).toBe(id(GENERATED - 101));
      const past = await list("limit=100&page=4");
      expect(past).toMatchObject({ challenges: [], total: GENERATED, page: 4 });
      // Without page: the first (100 by default).
      expect((await list("")).challenges).toHaveLength(100);
    });

    it("keeps the total and pages of a filtered list, the order stable across pages", async () => {
      const storage = Array.from({ length: GENERATED }, (_, i) => i).filter((i) => i % 4 === 1);
      const seen: string[] = [];
      const pages = Math.ceil(storage.length / 10);
      for (let page = 1; page <= pages; page++) {
        const body = await list(`limit=10&page=${page}&category=storage&order_by=points`);
        expect(body.total).toBe(storage.length);
        seen.push(...body.challenges.map((c) => c.uid));
      }
      expect(seen).toHaveLength(storage.length);
      expect([...seen].sort()).toEqual(storage.map(id).sort());
    });
  });

  describe("counts per category", () => {
    it("counts each category under the other filters, the category filter itself aside", async () => {
      const count = (i: (n: number) => boolean) => Array.from({ length: GENERATED }, (_, n) => n).filter(i).length;
      const all = await list("");
      expect(all.categories).toEqual(expect.arrayContaining(CATEGORIES.map((c, k) => ({ category: c, count: count((n) => n % 4 === k) }))));
      expect(all.categories.reduce((n, c) => n + c.count, 0)).toBe(GENERATED);
      // A category filter leaves the counts as they were (they are what picking another would give).
      const storage = await list("category=storage");
      expect(storage.categories).toEqual(all.categories);
      expect(storage.total).toBe(count((n) => n % 4 === 1));
      // Difficulty and search narrow them: difficulty is i % 4 as well, so easy is all linux.
      expect((await list("difficulty=easy")).categories).toEqual([{ category: "linux", count: count((n) => n % 4 === 0) }]);
      expect((await list("search=needle")).categories).toEqual([{ category: "security", count: 1 }]);
      expect((await list("search=needle&category=linux")).total).toBe(0);
    });
  });

  describe("progress", () => {
    beforeAll(async () => {
      // alice: solved 0 and 1, attempted 2 (a deployment) and 3 (a submission only), and 4
      // (attempted, then solved: solved wins). bob: solved 5, attempted 6.
      await solve(alice.id, id(0));
      await solve(alice.id, id(1));
      await deploy(alice.id, id(2));
      await submit(alice.id, id(3));
      const d = await deploy(alice.id, id(4));
      await submit(alice.id, id(4), d);
      await solve(alice.id, id(4));
      await solve(bob.id, id(5));
      await deploy(bob.id, id(6));
    });

    it("marks each challenge solved, attempted or new for the caller, and for no one else", async () => {
      const mine = progressOf(await list("order_by=newest&page=3", alice.token));
      expect(mine).toMatchObject({
        [id(0)]: "solved",
        [id(1)]: "solved",
        [id(2)]: "attempted",
        [id(3)]: "attempted",
        [id(4)]: "solved",
        [id(5)]: "new",
        [id(6)]: "new",
      });
      const theirs = progressOf(await list("order_by=newest&page=3", bob.token));
      expect(theirs).toMatchObject({ [id(0)]: "new", [id(1)]: "new", [id(2)]: "new", [id(3)]: "new", [id(4)]: "new", [id(5)]: "solved", [id(6)]: "attempted" });
      // A visitor after them (the same query, kept in the public cache): no progress at all.
      const visitor = await list("order_by=newest&page=3");
      expect(visitor.challenges.every((c) => c.progress === null)).toBe(true);
      // And the same the other way round: a player after a visitor gets their own.
      expect(progressOf(await list("order_by=newest&page=3", alice.token))[id(0)]).toBe("solved");
    });

    it("filters by the caller's solved and unsolved challenges, with totals and counts of their own", async () => {
      const solved = await list("progress=solved", alice.token);
      expect(solved.challenges.map((c) => c.uid).sort()).toEqual([id(0), id(1), id(4)]);
      expect(solved.total).toBe(3);
      expect(solved.challenges.every((c) => c.progress === "solved")).toBe(true);
      expect(solved.categories.reduce((n, c) => n + c.count, 0)).toBe(3);
      const unsolved = await list("progress=unsolved&limit=100&page=3", alice.token);
      expect(unsolved.total).toBe(GENERATED - 3);
      expect(unsolved.challenges).toHaveLength(GENERATED - 3 - 200);
      expect((await list("progress=Unsolved&order_by=newest&page=3", alice.token)).challenges.some((c) => c.progress === "solved")).toBe(false);
      const attempted = progressOf(await list("progress=unsolved&order_by=newest&page=3", alice.token));
      expect(attempted[id(2)]).toBe("attempted");
      expect(attempted[id(5)]).toBe("new");
      // Bob's filter is bob's.
      expect((await list("progress=solved", bob.token)).challenges.map((c) => c.uid)).toEqual([id(5)]);
      // "all" is no filter.
      expect((await list("progress=all", alice.token)).total).toBe(GENERATED);
      expect((await list("progress=solved&category=linux", alice.token)).total).toBe(2); // id(0), id(4)
    });

    it("orders by most solved", async () => {
      const body = await list("order_by=solves&limit=5", bob.token);
      const top = body.challenges.map((c) => c.uid);
      // 0, 1 and 5 have one solver each, 4 too; the rest none. Ties by title.
      expect(top.slice(0, 4).sort()).toEqual([id(0), id(1), id(4), id(5)]);
      expect(body.challenges.slice(0, 4).every((c) => c.solves === 1)).toBe(true);
      expect(body.challenges[4].solves).toBe(0);
    });

    it("needs a sign-in to filter by progress; a bad token is told so, not served as a visitor", async () => {
      expectError(await t.call("GET", "/challenges/?progress=solved"), 401, "Sign in to filter by progress");
      expectError(await t.call("GET", "/challenges/?progress=solved", { token: "not-a-token" }), 401);
      expect((await t.call("GET", "/challenges/", { token: "not-a-token" })).status).toBe(401);
      // A visitor's answer may be kept by anyone; a player's never.
      expect((await t.call("GET", "/challenges/")).headers.get("cache-control")).toBe("public, max-age=300");
      expect((await t.call("GET", "/challenges/", { token: alice.token })).headers.get("cache-control")).toBe("no-store");
    });
  });

  it("refuses hostile query values with the API's 400 naming the field", async () => {
    expectError(await t.call("GET", "/challenges/?page=0"), 400, "page: must be at least 1");
    expectError(await t.call("GET", "/challenges/?page=10001"), 400, "page: must be at most 10000");
    expectError(await t.call("GET", `/challenges/?page=${"9".repeat(400)}`), 400, /^page: /);
    expectError(await t.call("GET", "/challenges/?page=1.5"), 400, "page: must be a whole number");
    expectError(await t.call("GET", "/challenges/?page=-1"), 400, /^page: /);
    expectError(await t.call("GET", "/challenges/?page=two"), 400, /^page: /);
    // A repeated name: the last one counts (the router's rule for every query string), still checked.
    expect((await list("page=1&page=2")).page).toBe(2);
    expectError(await t.call("GET", "/challenges/?page=2&page=x"), 400, /^page: /);
    expectError(await t.call("GET", "/challenges/?order_by=rating"), 400, /^order_by: must be one of votes, points, title, difficulty, newest, solves/);
    expectError(await t.call("GET", "/challenges/?order_by=solves;drop"), 400, /^order_by: /);
    expectError(await t.call("GET", "/challenges/?progress=attempted", { token: alice.token }), 400, /^progress: must be one of solved, unsolved/);
    expectError(await t.call("GET", "/challenges/?progress=solved&progress=everyone", { token: alice.token }), 400, /^progress: /);
    expectError(await t.call("GET", "/challenges/?limit=1000000"), 400, "limit: must be at most 100");
    // The deepest page allowed is answered (empty), not an error.
    expect((await list("page=10000")).challenges).toEqual([]);
  });
});
