import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "faultline-config-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = (env: Record<string, string | undefined> = {}) => loadConfig({ DATA_DIR: dir, ...env });

/** The ConfigError loadConfig throws for `env`. */
function configError(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig", () => {
  it("has working defaults", () => {
    const c = load();
    expect(c.port).toBe(3000);
    expect(c.publicUrl.href).toBe("http://localhost:3000/");
    expect(c.database).toEqual({ kind: "sqlite", file: join(dir, "faultline.db") });
    expect(c.dataDir).toBe(dir);
    expect(c.secureCookies).toBe(false);
    expect(c.smtpUrl).toBeUndefined();
    expect(c.oauth.github.clientId).toBeUndefined();
    expect(c.oauth.github.authorizeUrl).toBe("https://github.com/login/oauth/authorize");
    expect(c.oauth.google.userInfoUrl).toBe("https://openidconnect.googleapis.com/v1/userinfo");
  });

  it.each([
    ["abc", /must be a port number/],
    ["70000", /PORT/],
    ["-1", /PORT/],
    ["1.5", /whole number/],
    ["80 80", /PORT/],
  ])("refuses PORT=%s with a message naming PORT", (PORT, message) => {
    const e = configError({ PORT });
    expect(e.message).toMatch(/PORT/);
    expect(e.message).toMatch(message);
  });

  it.each(["mysql://db/x", "postgres:/x", "/var/lib/x.db", "http://db"])("refuses DATABASE_URL=%s naming it", (DATABASE_URL) => {
    const e = configError({ DATABASE_URL });
    expect(e.message).toMatch(/DATABASE_URL: must start with postgres:\/\/ .* or sqlite:/);
  });

  it("reads ROLE as a comma list of web, api, ssh, worker (all by default), refusing others and splits on SQLite", () => {
    expect(load().roles).toEqual(["web", "api", "ssh", "worker"]);
    const pg = { DATABASE_URL: "postgres://u:p@db:5432/faultline" };
    expect(load({ ...pg, ROLE: " Worker, api ,api" }).roles).toEqual(["api", "worker"]);
    expect(load({ ...pg, ROLE: "ssh" }).roles).toEqual(["ssh"]);
    expect(configError({ ...pg, ROLE: "web,gateway" }).message).toContain(
      'ROLE: must be a comma-separated list of web, api, ssh, worker (not a role: "gateway")',
    );
    expect(configError({ ...pg, ROLE: " , " }).message).toContain("ROLE: must be a comma-separated list of web, api, ssh, worker");
    expect(configError({ ROLE: "web,api" }).message).toContain("ROLE: splitting roles over processes needs PostgreSQL");
    expect(load({ ROLE: "worker,ssh,api,web" }).roles).toHaveLength(4);
  });

  it("reads the warm pool's settings and PREPARE_AT_BOOT (docs/decisions/011-warm-pool.md)", () => {
    expect(load().deployments.pool).toEqual({ size: 0, idleSeconds: 3600 });
    expect(load({ WARM_POOL_SIZE: "2", WARM_POOL_IDLE_MINUTES: "15" }).deployments.pool).toEqual({ size: 2, idleSeconds: 900 });
    expect(load({ NODE_ENV: "production" }).deployments.prepareAtBoot).toBe(true);
    expect(load({ NODE_ENV: "test" }).deployments.prepareAtBoot).toBe(false);
    expect(load({ NODE_ENV: "test", PREPARE_AT_BOOT: "true" }).deployments.prepareAtBoot).toBe(true);
    const e = configError({ WARM_POOL_SIZE: "11", WARM_POOL_IDLE_MINUTES: "0", PREPARE_AT_BOOT: "yes" });
    for (const name of ["WARM_POOL_SIZE", "WARM_POOL_IDLE_MINUTES", "PREPARE_AT_BOOT"]) expect(e.message).toMatch(new RegExp(`^  ${name}: `, "m"));
  });

  it("refuses a METRICS_TOKEN under 24 characters and reads METRICS_PORT", () => {
    expect(configError({ METRICS_TOKEN: "s3cret-token" }).message).toContain("METRICS_TOKEN: must be at least 24 characters");
    expect(load({ METRICS_TOKEN: "x".repeat(24) }).metricsToken).toBe("x".repeat(24));
    expect(load().metricsPort).toBeUndefined();
    expect(load({ METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    expect(configError({ METRICS_PORT: "nope" }).message).toContain("METRICS_PORT: must be a port number");
  });

  it("names every bad variable at once", () => {
    const e = configError({ PORT: "x", PUBLIC_URL: "ftp://host", SMTP_URL: "http://mail", LOG_LEVEL: "loud", SESSION_SECRET: "short" });
    for (const name of ["PORT", "PUBLIC_URL", "SMTP_URL", "LOG_LEVEL", "SESSION_SECRET"]) expect(e.message).toMatch(new RegExp(`^  ${name}: `, "m"));
  });

  it("reads PostgreSQL and SQLite URLs", () => {
    expect(load({ DATABASE_URL: "postgres://u@127.0.0.1:5432/db" }).database).toEqual({ kind: "postgres", url: "postgres://u@127.0.0.1:5432/db" });
    expect(load({ DATABASE_URL: "postgresql://u@h/db" }).database.kind).toBe("postgres");
    expect(load({ DATABASE_URL: `sqlite:${dir}/x.db` }).database).toEqual({ kind: "sqlite", file: join(dir, "x.db") });
    expect(load({ DATABASE_URL: `file://${dir}/y.db` }).database).toEqual({ kind: "sqlite", file: join(dir, "y.db") });
  });

  it("defaults PUBLIC_URL from PORT, and takes a given one (https turns on secure cookies)", () => {
    expect(load({ PORT: "4123" }).publicUrl.href).toBe("http://localhost:4123/");
    const c = load({ PORT: "4123", PUBLIC_URL: "https://faultline.example" });
    expect(c.publicUrl.href).toBe("https://faultline.example/");
    expect(c.secureCookies).toBe(true);
  });

  it("treats a variable set to nothing as unset", () => {
    const c = load({ PORT: "", PUBLIC_URL: "", DATABASE_URL: " ", NODE_ENV: "", LOG_LEVEL: "", GITHUB_AUTHORIZE_URL: "" });
    expect(c.port).toBe(3000);
    expect(c.publicUrl.href).toBe("http://localhost:3000/");
    expect(c.database.kind).toBe("sqlite");
    expect(c.oauth.github.authorizeUrl).toBe("https://github.com/login/oauth/authorize");
  });

  it("generates SESSION_SECRET once into DATA_DIR and reuses it", () => {
    const first = load().sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, "session-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0); // readable by the owner only
    expect(load().sessionSecret).toBe(first);
    // Another DATA_DIR, another secret.
    const other = mkdtempSync(join(tmpdir(), "faultline-config-"));
    try {
      expect(loadConfig({ DATA_DIR: other }).sessionSecret).not.toBe(first);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("uses a given SESSION_SECRET without writing one, and refuses a short one", () => {
    const secret = "s".repeat(40);
    expect(load({ SESSION_SECRET: secret }).sessionSecret).toBe(secret);
    expect(() => statSync(join(dir, "session-secret"))).toThrow();
    expect(configError({ SESSION_SECRET: "too-short" }).message).toMatch(/SESSION_SECRET: must be at least 32 characters/);
  });

  it("keeps a secret written earlier even when the file has a trailing newline", () => {
    writeFileSync(join(dir, "session-secret"), "k".repeat(48) + "\n");
    expect(load().sessionSecret).toBe("k".repeat(48));
  });

  it("reads OAuth clients and endpoint overrides", () => {
    const c = load({
      GITHUB_CLIENT_ID: "gh",
      GITHUB_CLIENT_SECRET: "ghs",
      GITHUB_AUTHORIZE_URL: "http://127.0.0.1:9000/github/authorize",
      GOOGLE_USERINFO_URL: "http://127.0.0.1:9000/google/userinfo",
    });
    expect(c.oauth.github).toMatchObject({ clientId: "gh", clientSecret: "ghs", authorizeUrl: "http://127.0.0.1:9000/github/authorize" });
    expect(c.oauth.google.userInfoUrl).toBe("http://127.0.0.1:9000/google/userinfo");
    expect(configError({ GOOGLE_TOKEN_URL: "not a url" }).message).toMatch(/GOOGLE_TOKEN_URL/);
  });

  it("reads where recordings live and what one player may keep (docs/decisions/016-per-user-bounds.md)", () => {
    const d = load();
    expect(d.recordings).toEqual({
      dir: join(dir, "recordings"),
      perUser: { files: 500, bytes: 200 * 2 ** 20 },
      perDeployment: { files: 100, bytes: 50 * 2 ** 20 },
      perMinute: 30,
    });
    expect(d.minFreeBytes).toBe(512 * 2 ** 20);
    expect(d.outbox).toEqual({ maxFiles: 1000, maxBytes: 50 * 2 ** 20 });
    const c = load({
      RECORDINGS_DIR: join(dir, "elsewhere"),
      RECORDINGS_MAX_FILES_PER_USER: "7",
      RECORDINGS_MAX_MB_PER_DEPLOYMENT: "2",
      MIN_FREE_DISK_MB: "0",
    });
    expect(c.recordings).toMatchObject({ dir: join(dir, "elsewhere"), perUser: { files: 7 }, perDeployment: { bytes: 2 * 2 ** 20 } });
    expect(c.minFreeBytes).toBe(0);
    expect(configError({ RECORDINGS_MAX_FILES_PER_USER: "0", OUTBOX_MAX_MB: "lots" }).message).toMatch(
      /RECORDINGS_MAX_FILES_PER_USER: must be at least 1[\s\S]*OUTBOX_MAX_MB: must be a number of MiB/,
    );
  });
});
