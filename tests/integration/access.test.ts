// Who may call what, for every operation the API declares (the router's table, the same the
// OpenAPI document is made of): the router enforces each operation's `access` before it reads
// anything of the request. Walked as a visitor, as a player and as an admin, with placeholder
// path values and no body: refused callers are refused by access alone, whatever the inputs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperations } from "#shared/contract/operation.ts";
import { unauthorized } from "#server/core/errors.ts";
import { createLogger } from "#server/logger.ts";
import { createRouter } from "#server/api/router.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";

describe("the router's access guard", () => {
  it("refuses by the declared access before the handler runs or the body is read, even when the handler forgets to ask", async () => {
    const seen: string[] = [];
    const r = createRouter(createLogger("silent"), async ({ access }, c) => {
      seen.push(access);
      if (access !== "public" && c.request.headers.get("authorization") !== "Bearer ok") throw unauthorized();
    });
    let ran = 0;
    const ops = defineOperations({
      mine: { method: "POST", path: "/mine", summary: "x", tags: ["Test"], access: "user", body: z.object({}), response: z.object({ ran: z.number() }) },
      open: { method: "GET", path: "/open", summary: "x", tags: ["Test"], access: "public", response: z.object({ ran: z.number() }) },
    });
    r.handle(ops.mine, async () => ({ ran: ++ran }));
    r.handle(ops.open, async () => ({ ran: ++ran }));
    const send = (path: string, init: RequestInit = {}) => r.serve(new Request(`http://t${path}`, init), { clientIp: "127.0.0.1" });
    expect((await send("/mine", { method: "POST", body: "not json" })).status).toBe(401);
    expect(ran).toBe(0);
    expect((await send("/mine", { method: "POST", headers: { authorization: "Bearer ok" } })).status).toBe(200);
    expect((await send("/open")).status).toBe(200);
    expect(seen).toEqual(["user", "user", "public"]);
  });
});

describe("access, operation by operation", () => {
  let t: TestPlatform;
  let player: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestPlatform("sqlite", { env: { RUNTIME: "none" } });
    const p = await t.registerVerified();
    player = (await t.login(p)).access_token;
    const a = await t.registerVerified();
    await t.platform.accounts.setAdmin(a.username, true);
    admin = (await t.login(a)).access_token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const operations = () => t.platform.api.routes();
  // A path with each `:name` filled by a value of the right shape for no existing thing.
  const pathOf = (path: string) => path.replace(/:(\w+)/g, (_, k: string) => (k === "id" || k.endsWith("Id") ? "00000000-0000-4000-8000-000000000000" : "x"));
  const call = (method: string, path: string, token?: string) =>
    t.call(method, pathOf(path), { token, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) });

  it("declares an access for every operation, and every kind is used", () => {
    const kinds = new Set(operations().map((r) => r.op.access));
    expect(t.platform.api.routes().every((r) => r.op.access)).toBe(true);
    expect([...kinds].sort()).toEqual(["admin", "optional-user", "public", "service", "user"]);
  });

  it("a visitor gets 401 from every user and admin operation; a bad token is no better", async () => {
    for (const r of operations().filter((o) => o.op.access === "user" || o.op.access === "admin")) {
      const anonymous = await call(r.method, r.path);
      expect(anonymous.status, `${r.method} ${r.path} as a visitor: ${JSON.stringify(anonymous.body)}`).toBe(401);
      const forged = await call(r.method, r.path, "not-a-token");
      expect(forged.status, `${r.method} ${r.path} with a forged token`).toBe(401);
    }
  });

  it("a player gets 403 from every admin operation, and is let through every user operation", async () => {
    for (const r of operations()) {
      const res = await call(r.method, r.path, player);
      const label = `${r.method} ${r.path} as a player: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
      if (r.op.access === "admin") expect(res.status, label).toBe(403);
      // Past access, the operation answers for itself (a placeholder is not found, a missing
      // field is invalid...), never "who are you".
      else if (r.op.access === "user") expect(res.status, label).not.toBe(401);
    }
  });

  it("an admin is let through every admin operation", async () => {
    for (const r of operations().filter((o) => o.op.access === "admin")) {
      const res = await call(r.method, r.path, admin);
      expect([401, 403], `${r.method} ${r.path} as an admin: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).not.toContain(res.status);
    }
  });
});
