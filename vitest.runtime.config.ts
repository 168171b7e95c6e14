import { defineConfig } from "vitest/config";

// Runtime tests against a real dockerd (npm run test:runtime): the conformance suite and every
// challenge's setup → check fails → solution → check passes. Kept apart from vitest.config.ts so
// `npx vitest run` stays fast and needs no Docker. scripts/test.sh runs docker_ensure and
// `npm run images` first.
export default defineConfig({
  test: {
    include: ["tests/runtime/**/*.test.ts", "tests/gateway/**/*.test.ts"],
    environment: "node",
    // A proof deploys, sets up, checks twice and cleans up; three run at once on 2 cores.
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Both files start containers; on 2 cores they are faster one after the other.
    fileParallelism: false,
    // it.concurrent tests (one deployment or two each): three at a time fit 2 cores and dockerd.
    maxConcurrency: 3,
    // One more try for a test that fails: deployments share 2 cores and one engine, and a check
    // measured on a starved machine can time out. A real fault fails both tries.
    retry: 1,
  },
});
