// The real platform (server/platform.ts) built for a test: its own DATA_DIR, its own database
// (a SQLite file there, or a fresh database on the run's throwaway PostgreSQL), and a `call`
// helper that sends requests through the API's fetch-style handler in-process, exactly as
// server.ts does for HTTP. Mail goes to DATA_DIR/outbox (no SMTP_URL), read back with `mail`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { loadConfig } from "#server/config.ts";
import { createPlatform, type Platform } from "#server/platform.ts";
import { CHALLENGES_DIR } from "#server/library/challenges.ts";
import { createDatabase } from "./postgres.ts";

export type DbKind = "sqlite" | "postgres";
export const DATABASES: DbKind[] = ["sqlite", "postgres"];
export const PUBLIC_URL = "http://faultline.test:3000";

export interface CallOptions {
  /** JSON-encoded unless it is a string (sent as is, to test bad bodies). */
  body?: unknown;
  /** Access token for `Authorization: Bearer`. */
  token?: string;
  /** The caller's address as the transport would report it (rate limits key on it). */
  ip?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // Tests read arbitrary fields of the JSON answers.
  body: any;
  headers: Headers;
}

export interface MailMessage {
  file: string;
  to: string;
  subject: string;
  /** The decoded text body. */
  text: string;
}

export interface TestUser {
  username: string;
  email: string;
  password: string;
  /** The owner's view returned by registration. */
  user: any;
}

let seq = 0;
/** A name no other test in this run uses: `<prefix>_<pid><seq><random>`, at most 32 characters. */
export function unique(prefix = "u"): string {
  seq += 1;
  const tail = `${process.pid.toString(36)}${seq.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return `${prefix.slice(0, 31 - tail.length)}_${tail}`;
}

let ipSeq = 0;
/** A fresh client address (TEST-NET ranges), so rate limits of one test do not touch another. */
export function freshIp(): string {
  ipSeq += 1;
  return `198.51.${Math.floor(ipSeq / 250) % 250}.${(ipSeq % 250) + 1}`;
}

/** Decodes a MIME body part's transfer encoding (quoted-printable or base64) to text. */
export function decodeTransfer(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? "7bit").trim().toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") {
    const joined = body.replace(/=\r?\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined[i] === "=" ? /^[0-9A-Fa-f]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
      if (hex) {
        bytes.push(parseInt(hex[0], 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(joined[i]!, "utf8"));
      }
    }
    return Buffer.from(bytes).toString("utf8");
  }
  return body;
}

/** Parses a single-part .eml as written by the mailer's outbox. */
export function parseEml(raw: string, file = ""): MailMessage {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim();
  return {
    file,
    to: header("To") ?? "",
    subject: header("Subject") ?? "",
    text: decodeTransfer(body, header("Content-Transfer-Encoding")),
  };
}

/** The e-mail verification token in a message's link (`/verify-email?token=`). */
export function verificationToken(mail: MailMessage): string {
  const m = /\/verify-email\?token=([^\s"'<>]+)/.exec(mail.text);
  if (!m) throw new Error(`no verification link in mail to ${mail.to}:\n${mail.text}`);
  return decodeURIComponent(m[1]!);
}

/** A challenges folder holding copies of the named challenges only: tests that count the
 *  catalogue stay true as challenges/ grows. */
export function challengesFixture(ids: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "faultline-challenges-"));
  for (const id of ids) cpSync(join(CHALLENGES_DIR, id), join(dir, id), { recursive: true });
  return dir;
}

export interface TestPlatform {
  kind: DbKind;
  platform: Platform;
  dataDir: string;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /** Every message written to the outbox for `to`, oldest first. */
  mails(to: string): MailMessage[];
  /** The newest message for `to`; throws when there is none. */
  mail(to: string): MailMessage;
  /** Registers a user (fresh name, e-mail and address unless given) and checks it got 201. */
  register(over?: Partial<Pick<TestUser, "username" | "email" | "password">>): Promise<TestUser>;
  /** Registers and verifies the e-mail through the link in the mail. */
  registerVerified(over?: Partial<Pick<TestUser, "username" | "email" | "password">>): Promise<TestUser>;
  /** Password login that must succeed without a second factor; returns the answer body. */
  login(who: { username: string; password: string }, ip?: string): Promise<any>;
  close(): Promise<void>;
}

export async function createTestPlatform(kind: DbKind, opts: { env?: Record<string, string | undefined>; challengesDir?: string } = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), `faultline-${kind}-`));
  const databaseUrl = kind === "sqlite" ? `sqlite:${join(dataDir, "faultline.db")}` : await createDatabase(inject("postgresUrl"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL,
    LOG_LEVEL: "silent",
    ...(opts.challengesDir ? { CHALLENGES_DIR: opts.challengesDir } : {}),
    ...opts.env,
  });
  const platform = await createPlatform(config);

  async function call(method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { accept: "application/json", ...o.headers };
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const res = await platform.api.handle(new Request(`http://test/api/v1${path}`, { method, headers, body }), {
      clientIp: o.ip ?? "203.0.113.1",
    });
    const text = await res.text();
    // Mails go out after the answer (server/core/accounts/mail-later.ts): a test reads the
    // outbox once what its request mailed has been written. (A test with its own SMTP server
    // holds and releases mails itself.)
    if (!config.smtpUrl) await platform.accounts.mailsSettled();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Left as text: a test asserting JSON will say so.
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  function mails(to: string): MailMessage[] {
    const outbox = join(dataDir, "outbox");
    let files: string[];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    } catch {
      return [];
    }
    return files
      .map((f) => ({ f, t: statSync(join(outbox, f)).mtimeMs }))
      .sort((a, b) => a.t - b.t || a.f.localeCompare(b.f))
      .map(({ f }) => parseEml(readFileSync(join(outbox, f), "utf8"), join(outbox, f)))
      .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  }

  function mail(to: string): MailMessage {
    const all = mails(to);
    if (!all.length) throw new Error(`no mail for ${to} in ${join(dataDir, "outbox")}`);
    return all[all.length - 1]!;
  }

  async function register(over: Partial<Pick<TestUser, "username" | "email" | "password">> = {}): Promise<TestUser> {
    const username = over.username ?? unique("user");
    const email = over.email ?? `${username.toLowerCase()}@example.test`;
    const password = over.password ?? `pw-${username}-long enough`;
    const res = await call("POST", "/auth/register", { body: { username, email, password }, ip: freshIp() });
    if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    return { username, email, password, user: res.body };
  }

  async function registerVerified(over: Partial<Pick<TestUser, "username" | "email" | "password">> = {}) {
    const u = await register(over);
    const res = await call("POST", "/auth/verify-email", { body: { token: verificationToken(mail(u.email)) } });
    if (res.status !== 200) throw new Error(`verify ${u.username}: ${res.status} ${JSON.stringify(res.body)}`);
    return { ...u, user: res.body.user };
  }

  async function login(who: { username: string; password: string }, ip = freshIp()) {
    const res = await call("POST", "/auth/login", {
      body: { username_or_email: who.username, password: who.password },
      ip,
    });
    if (res.status !== 200 || !res.body.access_token) {
      throw new Error(`login ${who.username}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  }

  return {
    kind,
    platform,
    dataDir,
    call,
    mails,
    mail,
    register,
    registerVerified,
    login,
    async close() {
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
