import { defineConfig } from "vitest/config";

// Unit and integration tests (no React Router plugin: they test server code and pure modules).
export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
