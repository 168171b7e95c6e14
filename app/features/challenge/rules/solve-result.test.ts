import { describe, expect, it } from "vitest";
import { formatSolveTime } from "#app/lib/player.ts";
import { rankText } from "./solve-result.ts";

describe("success screen", () => {
  it("formats the real solve time and rank", () => {
    expect(formatSolveTime(724)).toBe("12m 04s");
    expect(formatSolveTime(59)).toBe("0m 59s");
    expect(formatSolveTime(3723)).toBe("1h 02m 03s");
    expect(rankText(3, 17)).toBe("rank 3 of 17");
  });
});
