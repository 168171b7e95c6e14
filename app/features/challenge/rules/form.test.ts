import { describe, expect, it } from "vitest";
import { SOLUTION_MAX } from "#shared/rules.ts";
import { REQUIRED } from "#app/lib/forms.ts";
import { isIntent, submitSchema } from "./form.ts";
import { TEXT } from "./texts.ts";

describe("the challenge page's forms", () => {
  it("knows the four intents and nothing else", () => {
    for (const intent of ["start", "extend", "terminate", "submit"]) expect(isIntent(intent)).toBe(true);
    for (const other of ["", "delete", "Start", null, undefined, 1]) expect(isIntent(other)).toBe(false);
  });

  it("takes a solution up to the API's limit, trimmed", () => {
    const ok = submitSchema.safeParse({ solution: ` ${"x".repeat(SOLUTION_MAX)} `, deployment_uid: "dep-1" });
    expect(ok.success && ok.data.solution.length).toBe(SOLUTION_MAX);
    expect(SOLUTION_MAX).toBe(16_384);
  });

  it("refuses an empty solution, a longer one, and a post without a deployment", () => {
    const messages = (v: unknown) => {
      const r = submitSchema.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(messages({ solution: "   ", deployment_uid: "dep-1" })).toEqual([REQUIRED]);
    expect(messages({ solution: "x".repeat(SOLUTION_MAX + 1), deployment_uid: "dep-1" })).toEqual([`At most ${SOLUTION_MAX} characters`]);
    expect(messages({ solution: "fixed it" })).toEqual([TEXT.noDeployment]);
    expect(messages({ solution: "fixed it", deployment_uid: "" })).toEqual([TEXT.noDeployment]);
  });
});
