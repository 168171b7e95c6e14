import { describe, expect, it } from "vitest";
import { isCurrent } from "./link.tsx";

describe("isCurrent (the nav's aria-current)", () => {
  it("marks the section's own page and the pages below it", () => {
    expect(isCurrent("/challenges", "/challenges")).toBe(true);
    expect(isCurrent("/challenges/nginx-broken-config", "/challenges")).toBe(true);
    expect(isCurrent("/Challenges/", "/challenges")).toBe(true);
    expect(isCurrent("/profile/settings", "/profile/")).toBe(true);
  });
  it("does not mark a page that only starts with the same letters, or another section", () => {
    expect(isCurrent("/challengesx", "/challenges")).toBe(false);
    expect(isCurrent("/leaderboard", "/challenges")).toBe(false);
  });
  it("marks the home page only on itself", () => {
    expect(isCurrent("/", "/")).toBe(true);
    expect(isCurrent("/challenges", "/")).toBe(false);
  });
});
