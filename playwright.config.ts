// Browser tests: Debian's Chromium against the real server (built web, fresh SQLite in a temp
// DATA_DIR) with a real SMTP server and a real OAuth2 provider on loopback.
// `scripts/test.sh` builds the web first; run `npm run build` yourself after changing app code.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { providerEnv } from "./tests/support/oauth-provider.ts";

export const APP_PORT = 3100;
export const CONTROL_PORT = 9400;
const SMTP_PORT = 9401;
const OAUTH_PORT = 9402;

// This file is loaded by the runner and again by every worker; the runner picks the run's
// values and the workers inherit them through the environment.
const env = process.env;
if (!env.E2E_DATA_DIR) {
  env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), "faultline-e2e-"));
  env.E2E_GITHUB_CLIENT_ID = `e2e-github-${randomBytes(4).toString("hex")}`;
  env.E2E_GITHUB_CLIENT_SECRET = randomBytes(20).toString("hex");
  env.E2E_GOOGLE_CLIENT_ID = `e2e-google-${randomBytes(4).toString("hex")}.apps.example.test`;
  env.E2E_GOOGLE_CLIENT_SECRET = randomBytes(20).toString("hex");
}
const clients = {
  github: { id: env.E2E_GITHUB_CLIENT_ID!, secret: env.E2E_GITHUB_CLIENT_SECRET! },
  google: { id: env.E2E_GOOGLE_CLIENT_ID!, secret: env.E2E_GOOGLE_CLIENT_SECRET! },
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  // Chromium aborts requests when deployment bridges come and go; one more try absorbs that.
  retries: 1,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  use: {
    baseURL: `http://localhost:${APP_PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      command: "npx tsx tests/support/e2e-services.ts",
      url: `http://127.0.0.1:${CONTROL_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      env: {
        E2E_CONTROL_PORT: String(CONTROL_PORT),
        E2E_SMTP_PORT: String(SMTP_PORT),
        E2E_OAUTH_PORT: String(OAUTH_PORT),
      },
    },
    {
      command: "npx tsx server.ts",
      url: `http://127.0.0.1:${APP_PORT}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      env: {
        NODE_ENV: "production",
        DATABASE_URL: "",
        SESSION_SECRET: "",
        TRUST_PROXY: "false",
        PORT: String(APP_PORT),
        PUBLIC_URL: `http://localhost:${APP_PORT}`,
        DATA_DIR: env.E2E_DATA_DIR!,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: "faultline <no-reply@faultline.test>",
        LOG_LEVEL: "warn",
        // The SSH gateway on a free port (advertised in each deployment's SSH details).
        SSH_PORT: "0",
        ...providerEnv(`http://127.0.0.1:${OAUTH_PORT}`, clients),
      },
    },
  ],
});
