import { defineConfig } from "vitest/config";

// Unit and integration tests (no React Router plugin: they test server code and pure modules).
// The global set-up starts a throwaway PostgreSQL for the API tests, which run against SQLite
// and PostgreSQL alike (tests/support/platform.ts).
export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "shared/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/lint/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/vitest-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
