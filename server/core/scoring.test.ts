import { describe, expect, it } from "vitest";
import { shortDescriptionOf } from "./catalogue.ts";
import { achievementsOf, levelOf, minutes, periodStart } from "./scoring.ts";

const at = (iso: string) => Date.parse(iso) / 1000;

describe("periodStart (UTC calendar periods)", () => {
  const wed = at("2026-07-15T13:45:10Z"); // a Wednesday
  it("today, this week (Monday), this month, all time", () => {
    expect(periodStart("today", wed)).toBe(at("2026-07-15T00:00:00Z"));
    expect(periodStart("this_week", wed)).toBe(at("2026-07-13T00:00:00Z"));
    expect(periodStart("this_month", wed)).toBe(at("2026-07-01T00:00:00Z"));
    expect(periodStart("all_time", wed)).toBe(0);
  });
  it("a Sunday belongs to the week that began on the Monday before; a Monday starts its own", () => {
    expect(periodStart("this_week", at("2026-07-19T23:59:59Z"))).toBe(at("2026-07-13T00:00:00Z"));
    expect(periodStart("this_week", at("2026-07-20T00:00:00Z"))).toBe(at("2026-07-20T00:00:00Z"));
    expect(periodStart("this_week", at("2026-03-01T10:00:00Z"))).toBe(at("2026-02-23T00:00:00Z"));
  });
});

describe("achievements", () => {
  const unlocked = (s: Parameters<typeof achievementsOf>[0]) => Object.fromEntries(achievementsOf(s).map((a) => [a.id, a.unlocked_at ?? false]));
  it("all locked without solves", () => {
    expect(unlocked([])).toEqual({ "first-blood": false, "speed-demon": false, "point-collector": false });
  });
  it("First Blood at the first solve; Point Collector when the running total reaches 1000", () => {
    const s = [
      { points: 600, solve_seconds: 900, solved_at: 10 },
      { points: 400, solve_seconds: 900, solved_at: 20 },
      { points: 100, solve_seconds: 900, solved_at: 30 },
    ];
    expect(unlocked(s)).toEqual({ "first-blood": 10, "speed-demon": false, "point-collector": 20 });
  });
  it("Speed Demon while the average stays under 5 minutes, dated from when it last became true", () => {
    const s = [
      { points: 1, solve_seconds: 100, solved_at: 10 }, // avg 100 s
      { points: 1, solve_seconds: 800, solved_at: 20 }, // avg 450 s: lost
      { points: 1, solve_seconds: 0, solved_at: 30 }, // avg 300 s: not under
      { points: 1, solve_seconds: 0, solved_at: 40 }, // avg 225 s: back
    ];
    expect(unlocked(s)["speed-demon"]).toBe(40);
    expect(unlocked(s.slice(0, 2))["speed-demon"]).toBe(false);
    expect(unlocked(s.slice(0, 1))["speed-demon"]).toBe(10);
  });
});

describe("small rules", () => {
  it("level = floor(points / 1000); minutes with one decimal", () => {
    expect([0, 999, 1000, 2999].map(levelOf)).toEqual([0, 0, 1, 2]);
    expect([0, 60, 754, 299].map(minutes)).toEqual([0, 1, 12.6, 5]);
  });
  it("short description fallback: first 100 characters plus an ellipsis, short ones as they are", () => {
    expect(shortDescriptionOf("x".repeat(150))).toBe(`${"x".repeat(100)}…`);
    expect(shortDescriptionOf("  short  ")).toBe("short");
  });
});
