// The one place where the environment is read. Parsed once at start; a bad value stops the
// process with a message that names the variable, instead of failing later at first use.
// Over 350 lines: every setting the platform reads from the environment, validated in one schema,
//  so a setting has one name and one default.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { CHALLENGES_DIR } from "./library/challenges.ts";

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const url = (fallback: string) => z.url({ protocol: /^https?$/ }).default(fallback);

/** The parts of faultline one process can run: HTML pages, the /api/v1 HTTP API (with the live
 *  channel), the SSH gateway, and the background worker (expiry, reconciliation, the warm pool). */
export const ROLES = ["web", "api", "ssh", "worker"] as const;
export type Role = (typeof ROLES)[number];

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a port number (0-65535)" }).int("must be a whole number").min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .refine((v) => /^(postgres|postgresql):\/\//.test(v) || /^(sqlite:|file:)/.test(v), {
        message: "must start with postgres:// (PostgreSQL) or sqlite: (a SQLite file path)",
      })
      .optional(),
  ),
  SESSION_SECRET: optional.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().default("faultline <no-reply@faultline.local>"),
  GITHUB_CLIENT_ID: optional,
  GITHUB_CLIENT_SECRET: optional,
  GITHUB_AUTHORIZE_URL: url("https://github.com/login/oauth/authorize"),
  GITHUB_TOKEN_URL: url("https://github.com/login/oauth/access_token"),
  GITHUB_API_URL: url("https://api.github.com"),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTHORIZE_URL: url("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: url("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: url("https://openidconnect.googleapis.com/v1/userinfo"),
  // How many reverse proxies stand in front of the server, each appending to X-Forwarded-For.
  // `true` is one (the usual single proxy), `false` none.
  TRUST_PROXY: z
    .string()
    .trim()
    .default("false")
    .transform((v) => (v === "true" ? "1" : v === "false" || v === "" ? "0" : v))
    .pipe(z.string().regex(/^(10|[0-9])$/, "must be true, false or a number of proxy hops (0-10)"))
    .transform(Number),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // text (one readable line per event) or json (one JSON object per line, for log collectors).
  LOG_FORMAT: z.enum(["text", "json"], { error: "must be text or json" }).default("text"),
  // Bearer token for /metrics (server/metrics.ts); without one, production serves /metrics only
  // on METRICS_PORT, a listener on 127.0.0.1, and development to loopback callers.
  METRICS_TOKEN: optional.pipe(z.string().min(24, "must be at least 24 characters").optional()),
  METRICS_PORT: z.coerce.number({ error: "must be a port number (0-65535)" }).int("must be a whole number").min(0).max(65535).optional(),
  SSH_PORT: z.coerce.number({ error: "must be a port number (0-65535)" }).int("must be a whole number").min(0).max(65535).default(2222),
  SSH_HOST: optional,
  SESSION_DURATION_MINUTES: z.coerce
    .number({ error: "must be a number of minutes" })
    .positive("must be more than 0")
    .max(24 * 60)
    .default(30),
  MAX_DEPLOYMENT_MINUTES: z.coerce
    .number({ error: "must be a number of minutes" })
    .positive("must be more than 0")
    .max(6 * 60)
    .default(180),
  // The platform's ceiling on deployments at once per user, over every plan (server/core/plans.ts:
  // free 1, Pro 3): at 3 by default, so Pro gets what it promises.
  MAX_CONCURRENT_DEPLOYMENTS: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1).max(100).default(3),
  DEPLOYMENT_GATEWAY_API_KEY: optional.pipe(z.string().min(24, "must be at least 24 characters").optional()),
  RUNTIME: z.enum(["docker", "none"]).default("docker"),
  // The OCI runtime of deployment containers: runc (default) or runsc (gVisor, registered by
  // scripts/docker.sh; docs/decisions/007-sandboxing.md).
  DEPLOYMENT_RUNTIME: z.enum(["runc", "runsc"], { error: "must be runc or runsc" }).default("runc"),
  // Admission control: the memory limits of all active deployments (plus their overhead) stay
  // within this share of the host's memory, or within CAPACITY_MEMORY_MB when given.
  CAPACITY_MEMORY_PERCENT: z.coerce.number({ error: "must be a percentage" }).min(1, "must be at least 1").max(100, "must be at most 100").default(75),
  CAPACITY_MEMORY_MB: z.coerce.number({ error: "must be a number of MiB" }).int("must be a whole number").positive("must be more than 0").optional(),
  // The warm pool (docs/decisions/011-warm-pool.md): deployments made and set up ahead of any
  // start, per challenge. WARM_POOL_SIZE is each challenge's pool unless its challenge.yaml says
  // `pool:`; 0 by default (each one holds memory of the capacity while it waits). A pooled one
  // unclaimed for WARM_POOL_IDLE_MINUTES is replaced by a fresh one.
  WARM_POOL_SIZE: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0).max(10, "must be at most 10").default(0),
  // Fill the runtime's caches for every challenge image at boot (the worker, in the background),
  // so the first deployment of an image after a restart is as fast as the next. Default: on, but
  // off under NODE_ENV=test (every test server would read every image again).
  PREPARE_AT_BOOT: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  WARM_POOL_IDLE_MINUTES: z.coerce
    .number({ error: "must be a number of minutes" })
    .positive("must be more than 0")
    .max(24 * 60)
    .default(60),
  CHALLENGES_DIR: optional,
  // What players can make the platform keep (docs/decisions/016-per-user-bounds.md): recordings
  // in a folder of their own (best a volume of its own), quotas per user and per deployment
  // (oldest private recordings make room), recorded shells per user per minute, and the free
  // space below which neither recordings nor the mail outbox are written.
  RECORDINGS_DIR: optional,
  RECORDINGS_MAX_MB_PER_USER: z.coerce.number({ error: "must be a number of MiB" }).int("must be a whole number").min(1, "must be at least 1").default(200),
  RECORDINGS_MAX_FILES_PER_USER: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").default(500),
  RECORDINGS_MAX_MB_PER_DEPLOYMENT: z.coerce
    .number({ error: "must be a number of MiB" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(50),
  RECORDINGS_MAX_FILES_PER_DEPLOYMENT: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(100),
  RECORDINGS_PER_MINUTE: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").default(30),
  MIN_FREE_DISK_MB: z.coerce.number({ error: "must be a number of MiB" }).int("must be a whole number").min(0, "must be at least 0").default(512),
  OUTBOX_MAX_FILES: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").default(1000),
  OUTBOX_MAX_MB: z.coerce.number({ error: "must be a number of MiB" }).int("must be a whole number").min(1, "must be at least 1").default(50),
  // The community's invite link, shown on /discord; without it the page says there is none yet.
  DISCORD_URL: optional.pipe(z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional()),
  // Payments (server/core/billing.ts): all three, or none (then payments are not enabled).
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_PRICE_ID: optional,
  // Where the Stripe client sends its calls instead of Stripe's own API: a local stand-in in tests.
  STRIPE_API_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  // What this process runs (README, "Several replicas"): a comma list of roles, all by default.
  ROLE: z
    .string()
    .default(ROLES.join(","))
    .transform((v, ctx) => {
      const roles = v
        .split(",")
        .map((r) => r.trim().toLowerCase())
        .filter(Boolean);
      const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
      if (roles.length === 0 || unknown.length) {
        ctx.addIssue({
          code: "custom",
          message: `must be a comma-separated list of ${ROLES.join(", ")}${unknown.length ? ` (not a role: ${unknown.map((r) => JSON.stringify(r)).join(", ")})` : ""}`,
        });
        return z.NEVER;
      }
      return ROLES.filter((r) => roles.includes(r));
    }),
});

export type OAuthProviderName = "github" | "google";
/** Stripe (server/core/billing.ts); absent: payments are not enabled. */
export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** Where the provider's API is; only tests set it (a local stand-in on loopback). */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

export interface OAuthProviderConfig {
  clientId?: string;
  clientSecret?: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** GitHub: the API base (we call /user and /user/emails); Google: the userinfo endpoint. */
  userInfoUrl: string;
}

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: URL;
  dataDir: string;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  sessionSecret: string;
  secureCookies: boolean;
  smtpUrl?: string;
  mailFrom: string;
  oauth: Record<OAuthProviderName, OAuthProviderConfig>;
  /** Reverse proxies in front of the server (0: none); the client address is read that many hops from the right of X-Forwarded-For. */
  trustProxy: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  logFormat: "text" | "json";
  /** What this process runs (ROLE); every role unless split over replicas on PostgreSQL. */
  roles: Role[];
  /** Bearer token that opens /metrics on the public port (none: see metricsPort). */
  metricsToken?: string;
  /** A second listener on 127.0.0.1 serving /metrics to whoever reaches it (this host only). */
  metricsPort?: number;
  ssh: { port: number; host: string };
  /** The challenge content: one folder per challenge (default: this checkout's challenges/). */
  challengesDir: string;
  /** The community's invite URL (/discord), when there is one. */
  discordUrl?: string;
  deployments: {
    /** "none": no engine (the API answers 503 to starts); "docker": DOCKER_HOST or the socket. */
    runtime: "docker" | "none";
    durationSeconds: number;
    /** A deployment never lives longer than this from its start, extensions included. */
    maxLifetimeSeconds: number;
    maxConcurrentPerUser: number;
    /** X-API-Key for services polling GET /deployments/{id}; none = owners only. */
    gatewayApiKey?: string;
    /** The OCI runtime deployment containers run under. */
    ociRuntime: "runc" | "runsc";
    /** Bytes of memory all active deployments may take together (admission control). */
    capacityBytes: number;
    /** The warm pool: each challenge's size unless its challenge.yaml says, and how long a
     *  pooled deployment may wait before it is replaced. */
    pool: { size: number; idleSeconds: number };
    /** Fill the runtime's caches for every challenge image when the worker starts. */
    prepareAtBoot: boolean;
  };
  /** Stripe for Pro upgrades; undefined: payments are not enabled on this installation. */
  billing?: BillingConfig;
  /** Recordings of shells: where they live and what one player may keep (quota.ts). */
  recordings: {
    dir: string;
    perUser: { files: number; bytes: number };
    perDeployment: { files: number; bytes: number };
    perMinute: number;
  };
  /** Below this many free bytes, recordings and the outbox stop being written. */
  minFreeBytes: number;
  /** The mail outbox (no SMTP_URL): at most this many files and bytes, the oldest go first. */
  outbox: { maxFiles: number; maxBytes: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to nothing (`PORT=` in an env file) counts as unset, so its default applies.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  const database: Config["database"] =
    e.DATABASE_URL && /^postgres/.test(e.DATABASE_URL)
      ? { kind: "postgres", url: e.DATABASE_URL }
      : {
          kind: "sqlite",
          file: e.DATABASE_URL ? resolve(e.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/, "")) : join(dataDir, "faultline.db"),
        };

  const billing = billingConfig(e);
  // SQLite is one process per database file: its locks and rate limits live in that process, so
  // a process running only some roles would have no one to share them with.
  if (database.kind === "sqlite" && e.ROLE.length !== ROLES.length) {
    throw new ConfigError(
      `Invalid configuration:\n  ROLE: splitting roles over processes needs PostgreSQL (DATABASE_URL=postgres://...): on SQLite one process runs every role (${ROLES.join(",")})`,
    );
  }

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    database,
    sessionSecret: e.SESSION_SECRET ?? generatedSecret(dataDir),
    secureCookies: publicUrl.protocol === "https:",
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    oauth: {
      github: {
        clientId: e.GITHUB_CLIENT_ID,
        clientSecret: e.GITHUB_CLIENT_SECRET,
        authorizeUrl: e.GITHUB_AUTHORIZE_URL,
        tokenUrl: e.GITHUB_TOKEN_URL,
        userInfoUrl: e.GITHUB_API_URL,
      },
      google: {
        clientId: e.GOOGLE_CLIENT_ID,
        clientSecret: e.GOOGLE_CLIENT_SECRET,
        authorizeUrl: e.GOOGLE_AUTHORIZE_URL,
        tokenUrl: e.GOOGLE_TOKEN_URL,
        userInfoUrl: e.GOOGLE_USERINFO_URL,
      },
    },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    roles: e.ROLE,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    ssh: { port: e.SSH_PORT, host: e.SSH_HOST ?? publicUrl.hostname },
    challengesDir: e.CHALLENGES_DIR ? resolve(e.CHALLENGES_DIR) : CHALLENGES_DIR,
    discordUrl: e.DISCORD_URL,
    deployments: {
      runtime: e.RUNTIME,
      durationSeconds: Math.round(e.SESSION_DURATION_MINUTES * 60),
      maxLifetimeSeconds: Math.round(Math.max(e.MAX_DEPLOYMENT_MINUTES, e.SESSION_DURATION_MINUTES) * 60),
      maxConcurrentPerUser: e.MAX_CONCURRENT_DEPLOYMENTS,
      gatewayApiKey: e.DEPLOYMENT_GATEWAY_API_KEY,
      ociRuntime: e.DEPLOYMENT_RUNTIME,
      capacityBytes: e.CAPACITY_MEMORY_MB !== undefined ? e.CAPACITY_MEMORY_MB * 1024 * 1024 : Math.floor((totalmem() * e.CAPACITY_MEMORY_PERCENT) / 100),
      pool: { size: e.WARM_POOL_SIZE, idleSeconds: Math.round(e.WARM_POOL_IDLE_MINUTES * 60) },
      prepareAtBoot: e.PREPARE_AT_BOOT ? e.PREPARE_AT_BOOT === "true" : e.NODE_ENV !== "test",
    },
    billing,
    recordings: {
      dir: e.RECORDINGS_DIR ? resolve(e.RECORDINGS_DIR) : join(dataDir, "recordings"),
      perUser: { files: e.RECORDINGS_MAX_FILES_PER_USER, bytes: e.RECORDINGS_MAX_MB_PER_USER * MIB },
      perDeployment: { files: e.RECORDINGS_MAX_FILES_PER_DEPLOYMENT, bytes: e.RECORDINGS_MAX_MB_PER_DEPLOYMENT * MIB },
      perMinute: e.RECORDINGS_PER_MINUTE,
    },
    minFreeBytes: e.MIN_FREE_DISK_MB * MIB,
    outbox: { maxFiles: e.OUTBOX_MAX_FILES, maxBytes: e.OUTBOX_MAX_MB * MIB },
  };
}

const MIB = 1024 * 1024;

/** Stripe's settings: all three or none; half a configuration would take money it cannot honour. */
function billingConfig(e: z.output<typeof envSchema>): BillingConfig | undefined {
  const given = { STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: e.STRIPE_PRICE_ID };
  const missing = Object.entries(given)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length === 3) return undefined;
  if (missing.length) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: is required when any STRIPE_ variable is set`).join("\n")}`);
  }
  const api = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : undefined;
  return {
    secretKey: e.STRIPE_SECRET_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    priceId: e.STRIPE_PRICE_ID!,
    ...(api
      ? {
          api: {
            host: api.hostname,
            port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
            protocol: api.protocol === "https:" ? ("https" as const) : ("http" as const),
          },
        }
      : {}),
  };
}

/** SESSION_SECRET when none is given: made once, kept in DATA_DIR so restarts keep sessions. */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}
