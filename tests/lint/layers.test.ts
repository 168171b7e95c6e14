// The layer rules of eslint.config.js (docs/architecture.md, "What may import what"): each
// forbidden import fails lint, the allowed ones next to it pass. ESLint runs on the given text as
// if it were the named file (the file need not exist).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });

/** The layer rule's messages for `code` linted as the file `filePath`. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const forbidden: [file: string, code: string][] = [
  ["app/routes/home.tsx", `import x from "#server/db/index.ts";`],
  ["app/routes/home.tsx", `import type { x } from "#server/core/users.ts";`],
  ["app/.server/api-client.ts", `import { x } from "#server/api/index.ts";`],
  ["app/components/settings/x.tsx", `export { x } from "#server/core/rules.ts";`],
  ["shared/contract/accounts.ts", `import type { x } from "#server/core/users.ts";`],
  ["shared/rules.ts", `import { x } from "#app/lib/player.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/api/router.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/gateway/types.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/http/live.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/terminal/web-shells.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/platform.ts";`],
  ["server/core/deployments/lifecycle.ts", `import { x } from "#server/api/index.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "#server/core/deployments/index.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "#server/db/index.ts";`],
  ["server/runtime/docker/containers.ts", `import { x } from "#server/core/errors.ts";`],
  ["server/db/index.ts", `import { x } from "#server/core/users.ts";`],
  ["server/db/index.ts", `import { x } from "#server/library/challenges.ts";`],
  ["server/db/migrations.ts", `import { x } from "#server/api/openapi.ts";`],
  ["server/platform.ts", `import { x } from "#app/root.tsx";`],
  // The player CLI is a client of the API: the contract, never the server or the web.
  ["cli/commands.ts", `import { x } from "#server/api/index.ts";`],
  ["cli/api.ts", `import type { x } from "#server/core/auth/personal-tokens.ts";`],
  ["cli/main.ts", `import { x } from "#app/.server/api-client.ts";`],
  ["cli/config.ts", `import { x } from "../shared/rules.ts";`],
  // Climbing out of a folder goes through an alias, wherever it leads.
  ["server/core/grading.ts", `import { x } from "../db/index.ts";`],
  ["server/core/deployments/lifecycle.ts", `import { x } from "../../../shared/rules.ts";`],
  ["app/routes/home.tsx", `import { x } from "../lib/forms.ts";`],
  ["shared/contract/accounts.ts", `import type { x } from "../rules.ts";`],
];

const allowed: [file: string, code: string][] = [
  ["app/routes/home.tsx", `import { x } from "#app/.server/guards.ts";`],
  ["app/routes/home.tsx", `import type { x } from "#shared/contract/index.ts";`],
  ["app/features/challenge/components/x.tsx", `import { x } from "./badges.tsx";`],
  ["shared/contract/accounts.ts", `import type { x } from "#shared/rules.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/db/index.ts";`],
  ["server/core/grading.ts", `import { x } from "#server/runtime/scenario.ts";`],
  ["server/core/grading.ts", `import { x } from "#shared/rules.ts";`],
  ["server/core/grading.ts", `import { x } from "./auth/tokens.ts";`],
  ["server/api/index.ts", `import { x } from "#server/core/accounts/index.ts";`],
  ["server/gateway/gateway.ts", `import { x } from "#server/core/deployments/index.ts";`],
  ["server/runtime/docker/containers.ts", `import { x } from "#server/runtime/types.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "#server/library/challenges.ts";`],
  ["server/db/index.ts", `import { x } from "#server/config.ts";`],
  ["cli/commands.ts", `import { x } from "#shared/contract/deployments.ts";`],
  ["cli/main.ts", `import { x } from "./commands.ts";`],
  // A unit test beside its module may reach the shared test support.
  ["server/core/ratelimit.test.ts", `import { x } from "../../tests/support/postgres.ts";`],
];

describe("layer rules (eslint.config.js)", () => {
  it.each(forbidden)("%s may not: %s", async (file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  });

  it.each(allowed)("%s may: %s", async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  it("names the rule a forbidden import breaks", async () => {
    const [message] = await layerErrors("app/routes/home.tsx", `import x from "#server/db/index.ts";`);
    expect(message).toContain("app/ imports only shared/ and its own code");
  });
});
