// The library proven through the real platform, as players meet it (scripts/prove.ts): for every
// challenge, a deployment started through the API, the check refusing it, the reference solution
// run through the SSH gateway with the OpenSSH client, the check accepting it with the written
// answer the solution gives. The fakes are proven per challenge in fakes.test.ts, each variant in
// challenges.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playerPool, prove, type PlayerPool } from "../../scripts/prove.ts";
import { loadChallenges } from "#server/library/challenges.ts";
import { startTestServer } from "../support/server.ts";

const challenges = loadChallenges();
let server: Awaited<ReturnType<typeof startTestServer>>;
let pool: PlayerPool;

beforeAll(async () => {
  server = await startTestServer();
  pool = playerPool(server, 8);
});
afterAll(async () => {
  await server?.stop();
});

describe("every challenge through the platform and the SSH gateway", () => {
  for (const challenge of challenges) {
    it.concurrent(challenge.id, async () => {
      const steps = [];
      for await (const step of prove(server, pool, challenge, { fakes: false })) steps.push(step);
      expect(steps.map((s) => [s.step, s.ok, s.ok ? "" : s.detail])).toEqual([
        ["the check refuses the fresh deployment", true, ""],
        ["solution.sh runs through the SSH gateway", true, ""],
        ["the check accepts the fixed deployment", true, ""],
      ]);
    });
  }
});
