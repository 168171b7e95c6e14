// The footer's pages by name: names of Object.prototype members are not pages.
import { describe, expect, it } from "vitest";
import { loader, pageFor } from "./info-page.tsx";

describe("info pages", () => {
  // /docs and /status have their own routes (routes/docs.tsx, routes/status.tsx).
  it("finds the footer's pages", () => {
    for (const name of ["discord", "privacy", "terms", "security", "cookies"]) {
      expect(pageFor(name)?.title).toBe(name);
    }
  });

  it("answers 404, not a 500, for names inherited from Object.prototype", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "nope"]) {
      expect(pageFor(name), name).toBeUndefined();
      let thrown: unknown;
      try {
        await loader({ params: { page: name } } as never);
      } catch (e) {
        thrown = e;
      }
      expect((thrown as { init?: { status?: number } })?.init?.status, name).toBe(404);
    }
  });
});
