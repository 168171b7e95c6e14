import { describe, expect, it } from "vitest";
import { categoryLabel, epochMs, formatDate, formatMinutes, formatSolveTime, pageParam, totalPages } from "./player.ts";

describe("player page helpers", () => {
  it("created_at in seconds or milliseconds: above 1e12 is milliseconds", () => {
    expect(epochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(epochMs(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(formatDate(1_700_000_000)).toBe(formatDate(1_700_000_000_000));
    expect(formatDate(1_700_000_000)).toBe("Nov 14, 2023");
  });
  it("formats times, pages and labels", () => {
    expect(formatMinutes(null)).toBe("-");
    expect(formatMinutes(12.5)).toBe("12.5m");
    expect(formatSolveTime(1530)).toBe("25m 30s");
    expect(formatSolveTime(42)).toBe("0m 42s");
    expect([null, "0", "-2", "x", "3", "2.5"].map(pageParam)).toEqual([1, 1, 1, 1, 3, 1]);
    expect([totalPages(0, 15), totalPages(15, 15), totalPages(16, 15)]).toEqual([1, 1, 2]);
    expect(categoryLabel("linux")).toBe("Linux");
  });
});
