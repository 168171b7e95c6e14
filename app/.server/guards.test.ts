// safeRedirect: where the login, 2FA and OAuth pages send the browser afterwards.
import { describe, expect, it } from "vitest";
import { safeRedirect } from "./guards.ts";

/** Where a browser on https://faultline.example would land after `Location: <to>`. */
const landsOn = (to: string) => new URL(to, "https://faultline.example/login").origin;

describe("safeRedirect", () => {
  it("keeps local paths with their query and fragment", () => {
    for (const to of ["/profile", "/challenges/nginx-broken-config?tab=hints#top", "/leaderboard?period=today", "/"]) {
      expect(safeRedirect(to)).toBe(to);
    }
    expect(safeRedirect("/a/../challenges")).toBe("/challenges");
    // An encoded tab is only text in a path: the browser keeps it encoded, on this site.
    expect(safeRedirect("/%09/evil.example")).toBe("/%09/evil.example");
    expect(safeRedirect("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it("refuses everything a browser could resolve to another host", () => {
    const hostile = [
      "/\t/evil.example", // the query-string value /%09/evil.example, decoded
      "/\n/evil.example",
      "/\r/evil.example",
      "/\r\n/evil.example",
      "/\t\t/evil.example/login",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\/evil.example",
      "/.//evil.example",
      "/./\t/evil.example",
      "https://evil.example",
      "http:evil.example",
      "javascript:alert(1)",
      "evil.example",
      " /profile",
      "/\u0000/evil.example",
      "/\u007f/evil.example",
      "",
    ];
    for (const to of hostile) {
      const out = safeRedirect(to);
      expect(out, JSON.stringify(to)).toBe("/profile");
    }
    // And every accepted value stays on the site, as a browser would resolve it.
    for (const to of [...hostile, "/%09/evil.example", "/%5C%5Cevil.example"]) {
      expect(landsOn(safeRedirect(to)), JSON.stringify(to)).toBe("https://faultline.example");
    }
  });

  it("uses the fallback for anything that is not a string", () => {
    for (const to of [undefined, null, 42, ["/profile"], { toString: () => "/x" }]) expect(safeRedirect(to, "/home")).toBe("/home");
  });
});
