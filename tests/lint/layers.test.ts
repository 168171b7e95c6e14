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
  ["app/routes/home.tsx", `import x from "../../server/db/index.ts";`],
  ["app/routes/home.tsx", `import type { x } from "../../server/core/users.ts";`],
  ["app/.server/api-client.ts", `import { x } from "../../server/api/index.ts";`],
  ["app/components/settings/x.tsx", `export { x } from "../../../server/core/rules.ts";`],
  ["shared/contract/accounts.ts", `import type { x } from "../../server/core/users.ts";`],
  ["shared/rules.ts", `import { x } from "../app/lib/player.ts";`],
  ["server/core/grading.ts", `import { x } from "../api/router.ts";`],
  ["server/core/grading.ts", `import { x } from "../gateway/types.ts";`],
  ["server/core/grading.ts", `import { x } from "../live.ts";`],
  ["server/core/grading.ts", `import { x } from "../http.ts";`],
  ["server/core/deployments/lifecycle.ts", `import { x } from "../../api/index.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "../core/deployments/index.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "../db/index.ts";`],
  ["server/runtime/docker/containers.ts", `import { x } from "../../core/errors.ts";`],
  ["server/db/index.ts", `import { x } from "../core/users.ts";`],
  ["server/db/migrations.ts", `import { x } from "../api/openapi.ts";`],
  ["server/platform.ts", `import { x } from "../app/root.tsx";`],
];

const allowed: [file: string, code: string][] = [
  ["app/routes/home.tsx", `import { x } from "../.server/guards.ts";`],
  ["app/routes/home.tsx", `import type { x } from "../../shared/contract/index.ts";`],
  ["app/components/settings/x.tsx", `import { x } from "../../../shared/rules.ts";`],
  ["shared/contract/accounts.ts", `import type { x } from "../rules.ts";`],
  ["server/core/grading.ts", `import { x } from "../db/index.ts";`],
  ["server/core/grading.ts", `import { x } from "../runtime/scenario.ts";`],
  ["server/core/grading.ts", `import { x } from "../../shared/rules.ts";`],
  ["server/api/index.ts", `import { x } from "../core/accounts.ts";`],
  ["server/gateway/gateway.ts", `import { x } from "../core/deployments/index.ts";`],
  ["server/runtime/docker/containers.ts", `import { x } from "../types.ts";`],
  ["server/runtime/scenario.ts", `import { x } from "../../shared/rules.ts";`],
  ["server/db/index.ts", `import { x } from "../config.ts";`],
];

describe("layer rules (eslint.config.js)", () => {
  it.each(forbidden)("%s may not: %s", async (file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  });

  it.each(allowed)("%s may: %s", async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  it("names the rule a forbidden import breaks", async () => {
    const [message] = await layerErrors("app/routes/home.tsx", `import x from "../../server/db/index.ts";`);
    expect(message).toContain("app/ imports only shared/ and its own code");
  });
});
