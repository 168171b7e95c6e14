// Costed hints and the debrief, on SQLite and PostgreSQL: hints are revealed one at a
// time and in order, their costs are shown before, their texts never leave the API before they
// are revealed, and the cost is deducted only at the solve (grading's insertion asks
// hintChargeOnSolve inside its transaction, as here), never below 0. The whole path through a
// real check (Docker) is tests/e2e/debrief.spec.ts.
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hintChargeOnSolve } from "#server/core/hints.ts";
import { nowSeconds } from "#server/db/index.ts";
import { challengesFixture, createTestPlatform, DATABASES, type TestPlatform } from "../support/platform.ts";

const LEDGER = "disk-full-deleted-log";
/** A copy of nginx-broken-config (100 points) whose two hints cost 80 each: more than the points. */
const PRICEY = "nginx-broken-config";

function content(): { dir: string; ledgerHints: string[]; priceyHints: string[] } {
  const dir = challengesFixture([LEDGER, PRICEY]);
  const file = join(dir, PRICEY, "challenge.yaml");
  const y = parse(readFileSync(file, "utf8"));
  y.hints = [
    { text: "Pricey hint one: run nginx -t and read the line it names.", cost: 80 },
    { text: "Pricey hint two: compare the site file with sites-enabled.", cost: 80 },
  ];
  writeFileSync(file, stringify(y));
  const ledger = parse(readFileSync(join(dir, LEDGER, "challenge.yaml"), "utf8"));
  return { dir, ledgerHints: ledger.hints, priceyHints: y.hints.map((h: { text: string }) => h.text) };
}

describe.each(DATABASES)("costed hints on %s", (kind) => {
  let t: TestPlatform;
  const c = content();
  beforeAll(async () => {
    t = await createTestPlatform(kind, { challengesDir: c.dir, env: { RUNTIME: "none" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function player() {
    const u = await t.registerVerified();
    const token = (await t.login(u)).access_token;
    const id = (await t.platform.db.selectFrom("users").select("id").where("username", "=", u.username).executeTakeFirstOrThrow()).id;
    return { ...u, token, id };
  }

  /** What grading does at a correct submission: the solve row, its points computed in the same
   *  transaction from the revealed hints. */
  async function solve(userId: string, challengeId: string) {
    const challenge = { id: challengeId, points: challengeId === LEDGER ? 200 : 100 };
    return t.platform.db.transaction().execute(async (trx) => {
      const charge = await hintChargeOnSolve(trx, userId, challenge);
      await trx
        .insertInto("solves")
        .values({ user_id: userId, challenge_id: challengeId, deployment_id: randomUUID(), points: charge.points, solve_seconds: 300, solved_at: nowSeconds() })
        .execute();
      return charge;
    });
  }

  const noHintText = (body: unknown, texts: string[]) => {
    const raw = JSON.stringify(body);
    for (const text of texts) expect(raw).not.toContain(text.slice(0, 30));
  };

  it("lists count and costs (10% of the points by default) without any text before a reveal", async () => {
    const p = await player();
    const res = await t.call("GET", `/challenges/${LEDGER}/hints`, { token: p.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ challenge_id: LEDGER, count: 3, revealed: 0, pending_cost: 0, solved: false });
    expect(res.body.hints).toEqual([
      { number: 1, cost: 20, revealed: false, text: null },
      { number: 2, cost: 20, revealed: false, text: null },
      { number: 3, cost: 20, revealed: false, text: null },
    ]);
    noHintText(res.body, c.ledgerHints);
    // Nor the catalogue, nor the challenge's own page data.
    const one = await t.call("GET", `/challenges/${LEDGER}`, { token: p.token });
    expect(one.body.hint_count).toBe(3);
    noHintText(one.body, c.ledgerHints);
    noHintText((await t.call("GET", "/challenges/")).body, [...c.ledgerHints, ...c.priceyHints]);
    // The debrief is closed before solving.
    const debrief = await t.call("GET", `/challenges/${LEDGER}/debrief`, { token: p.token });
    expect(debrief.status).toBe(403);
    expect(debrief.body.detail).toMatch(/Solve this challenge first/);
    noHintText(debrief.body, c.ledgerHints);
  });

  it("reveals one at a time, in order; a repeated post reveals nothing twice", async () => {
    const p = await player();
    const skip = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 2 } });
    expect(skip.status).toBe(409);
    expect(skip.body.detail).toBe("Reveal the hints in order: hint 1 comes first.");

    const first = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.revealed).toBe(1);
    expect(first.body.hints[0]).toEqual({ number: 1, cost: 20, revealed: true, text: c.ledgerHints[0] });
    expect(first.body.hints[1].text).toBeNull();
    noHintText(first.body, c.ledgerHints.slice(1));
    expect(first.body.pending_cost).toBe(20);

    const again = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 1 } });
    expect(again.status).toBe(200);
    expect(again.body.revealed).toBe(1);

    const second = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 2 } });
    expect(second.body).toMatchObject({ revealed: 2, pending_cost: 40 });
    // Remembered: a fresh read (another deployment, another day) shows the same.
    const later = await t.call("GET", `/challenges/${LEDGER}/hints`, { token: p.token });
    expect(later.body.hints.map((h: { revealed: boolean }) => h.revealed)).toEqual([true, true, false]);
    // Another player's hints are their own.
    const other = await player();
    expect((await t.call("GET", `/challenges/${LEDGER}/hints`, { token: other.token })).body.revealed).toBe(0);
  });

  it("refuses bad input with a clear 400, strangers with 401, unknown challenges with 404", async () => {
    const p = await player();
    for (const body of [{}, { number: "one" }, { number: 0 }, { number: 1.5 }, { number: 1, extra: true }]) {
      const res = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(/number|extra/);
    }
    expect((await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 4 } })).status).toBe(400);
    expect((await t.call("GET", `/challenges/${LEDGER}/hints`)).status).toBe(401);
    expect((await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { body: { number: 1 } })).status).toBe(401);
    expect((await t.call("GET", "/challenges/no-such-thing/hints", { token: p.token })).status).toBe(404);
    expect((await t.call("GET", "/challenges/NOT%20AN%20ID/hints", { token: p.token })).status).toBe(400);
  });

  it("costs nothing without a solve; deducted at the solve; the debrief then shows it", async () => {
    const p = await player();
    await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 1 } });
    await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 2 } });
    // Not solved: no points taken anywhere.
    const before = await t.call("GET", `/users/${p.username}`);
    expect(before.body.total_points ?? before.body.points ?? 0).toBe(0);
    const rows = await t.platform.db.selectFrom("solves").selectAll().where("user_id", "=", p.id).execute();
    expect(rows).toEqual([]);

    expect(await solve(p.id, LEDGER)).toEqual({ points: 160, hintsCost: 40 });
    const row = await t.platform.db.selectFrom("solves").select("points").where("user_id", "=", p.id).executeTakeFirstOrThrow();
    expect(Number(row.points)).toBe(160);

    const debrief = await t.call("GET", `/challenges/${LEDGER}/debrief`, { token: p.token });
    expect(debrief.status).toBe(200);
    expect(debrief.body).toMatchObject({ challenge_id: LEDGER, points: 200, points_awarded: 160, hints_cost: 40, recordings: [], commands: [] });
    expect(debrief.body.debrief.length).toBeGreaterThan(40);
    expect(debrief.body.solution_steps.length).toBeGreaterThan(1);

    // After the solve, hints are free: a third reveal changes nothing of the points.
    const third = await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 3 } });
    expect(third.body).toMatchObject({ revealed: 3, solved: true, pending_cost: 0 });
    expect((await t.call("GET", `/challenges/${LEDGER}/debrief`, { token: p.token })).body.hints_cost).toBe(40);
  });

  it("a solve without hints earns the full points", async () => {
    const p = await player();
    expect(await solve(p.id, LEDGER)).toEqual({ points: 200, hintsCost: 0 });
  });

  it("never below 0: hints costing more than the challenge leave 0 points", async () => {
    const p = await player();
    const state = await t.call("GET", `/challenges/${PRICEY}/hints`, { token: p.token });
    expect(state.body.hints.map((h: { cost: number }) => h.cost)).toEqual([80, 80]);
    await t.call("POST", `/challenges/${PRICEY}/hints/reveal`, { token: p.token, body: { number: 1 } });
    const both = await t.call("POST", `/challenges/${PRICEY}/hints/reveal`, { token: p.token, body: { number: 2 } });
    expect(both.body.pending_cost).toBe(100);
    const none = await t.call("POST", `/challenges/${PRICEY}/hints/reveal`, { token: p.token, body: { number: 2 } });
    expect(none.status).toBe(200);
    expect(await solve(p.id, PRICEY)).toEqual({ points: 0, hintsCost: 100 });
  });

  it("a hidden challenge's hints and debrief are for admins only: 404 to a player, even one who solved it", async () => {
    const p = await player();
    await solve(p.id, PRICEY);
    const admin = await player();
    await t.platform.accounts.setAdmin(admin.username, true);
    const hide = (hidden: boolean) => t.call("PUT", `/admin/challenges/${PRICEY}/visibility`, { token: admin.token, body: { hidden } });
    expect((await hide(true)).status).toBe(200);
    try {
      for (const [method, path, body] of [
        ["GET", `/challenges/${PRICEY}/hints`, undefined],
        ["POST", `/challenges/${PRICEY}/hints/reveal`, { number: 1 }],
        ["GET", `/challenges/${PRICEY}/debrief`, undefined],
      ] as const) {
        const res = await t.call(method, path, { token: p.token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.detail).toBe("Challenge not found");
        noHintText(res.body, c.priceyHints);
      }
      expect(await t.platform.db.selectFrom("hint_reveals").selectAll().where("user_id", "=", p.id).execute()).toEqual([]);
      // Admins test hidden challenges before they are shown.
      const state = await t.call("POST", `/challenges/${PRICEY}/hints/reveal`, { token: admin.token, body: { number: 1 } });
      expect(state.status).toBe(200);
      expect(state.body.hints[0].text).toBe(c.priceyHints[0]);
    } finally {
      await hide(false);
    }
    // Shown again: the player has it all back.
    expect((await t.call("GET", `/challenges/${PRICEY}/debrief`, { token: p.token })).status).toBe(200);
  });

  it("revealed hints go with the account (ON DELETE CASCADE)", async () => {
    const p = await player();
    await t.call("POST", `/challenges/${LEDGER}/hints/reveal`, { token: p.token, body: { number: 1 } });
    await t.platform.db.deleteFrom("users").where("id", "=", p.id).execute();
    const left = await t.platform.db.selectFrom("hint_reveals").selectAll().where("user_id", "=", p.id).execute();
    expect(left).toEqual([]);
  });
});
