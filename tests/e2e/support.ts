// Shared helpers of the browser tests: the loopback services' control endpoint (mail, OAuth
// identities), users made through the real API, TOTP codes, SSH keys and screenshots.
import { execFileSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import type { OAuthProfile, ResolvedProfile } from "../support/oauth-provider.ts";
import type { CapturedMessage } from "../support/smtp.ts";
import { makeSshKey, putSshKey, signWithSshKey } from "../support/ssh-keys.ts";

export const APP = "http://localhost:3100";
export const CONTROL = "http://127.0.0.1:9400";
export const DATA_DIR = process.env.E2E_DATA_DIR!;

/** A fresh name for this test run: lower-case, 3-32 of [a-z0-9_-]. */
export function unique(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString("hex")}`.slice(0, 32);
}

export function newUser(prefix = "e2e") {
  const username = unique(prefix);
  return { username, email: `${username}@mail.example.test`, password: `pw-${randomBytes(6).toString("hex")}!` };
}
export type TestUser = ReturnType<typeof newUser>;

// ------------------------------------------------------------------ mail

/** The latest mail to `to` (waiting up to 15 s for one to arrive). */
export async function waitForMail(to: string, since = 0): Promise<CapturedMessage> {
  const res = await fetch(`${CONTROL}/messages?to=${encodeURIComponent(to)}&wait=15000&since=${since}`);
  if (!res.ok) throw new Error(`no mail for ${to}: ${await res.text()}`);
  return (await res.json()) as CapturedMessage;
}

export function verificationLink(mail: CapturedMessage): string {
  const m = /https?:\/\/\S+\/verify-email\?token=[^\s"<>]+/.exec(mail.text);
  if (!m) throw new Error(`no verification link in:\n${mail.text}`);
  return m[0];
}

// ------------------------------------------------------------------ OAuth provider

export async function nextOAuthProfile(provider: "github" | "google", profile: OAuthProfile): Promise<ResolvedProfile> {
  const res = await fetch(`${CONTROL}/oauth/next-profile/${provider}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(profile),
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as ResolvedProfile;
}

export async function oauthStats(): Promise<{ tokenIssued: number; tokenRefused: number; userinfo: number }> {
  return (await fetch(`${CONTROL}/oauth/stats`)).json() as never;
}

// ------------------------------------------------------------------ the API, as other clients

/**
 * A JSON call to faultline's API from its own loopback address (127.0.0.x), the way a separate
 * client would: users made for a test's set-up do not count against the browser's per-address
 * registration limit.
 */
export function api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; data: T }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: "application/json" };
  if (payload) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(payload.length);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `http://127.0.0.1:3100/api/v1${path}`,
      { method, headers, localAddress: `127.0.${randomInt(1, 250)}.${randomInt(2, 250)}` },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          let data: any = text;
          try {
            data = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, data });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A password account made through the API; `verified` follows the mailed link. */
export async function createUser(opts: { prefix?: string; verified?: boolean } = {}): Promise<TestUser> {
  const user = newUser(opts.prefix);
  const res = await api("POST", "/auth/register", user);
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  if (opts.verified !== false) {
    const token = new URL(verificationLink(await waitForMail(user.email))).searchParams.get("token");
    const v = await api("POST", "/auth/verify-email", { token });
    expect(v.status, JSON.stringify(v.data)).toBe(200);
  }
  return user;
}

// ------------------------------------------------------------------ browser steps

export async function loginViaForm(page: Page, who: { username: string; password: string }, path = "/login") {
  if (path) await page.goto(path);
  await page.getByLabel("username or email").fill(who.username);
  await page.getByLabel("password").fill(who.password);
  // Wait for the answer to the post: a navigation right after the click would cancel it.
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/login")),
    page.getByRole("button", { name: "login" }).click(),
  ]);
}

export async function expectSignedInAs(page: Page, username: string) {
  await expect(page.getByTestId("nav-username").first()).toHaveText(`~${username}`);
}

export async function logout(page: Page) {
  // The desktop nav's logout (the phone menu holds a second copy).
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "logout" }).first().click();
  await expect(page.getByRole("link", { name: "login.sh" }).first()).toBeVisible();
}

// ------------------------------------------------------------------ TOTP, SSH keys

/** The code of the 30 s step `stepsAhead` steps from now. */
export function totpCode(secret: string, stepsAhead = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/** A fresh key pair from ssh-keygen (ed25519 unless told otherwise); `file` is the private key
 *  (kept in a temporary folder, so the test can sign with it). */
export function generateSshKey(
  comment = "e2e@faultline",
  type: { t: "ed25519" } | { t: "rsa" | "ecdsa"; bits: number } = { t: "ed25519" },
): { publicKey: string; fingerprint: string; file: string } {
  const key = makeSshKey("id", type.t, { bits: "bits" in type ? type.bits : undefined, comment });
  return { publicKey: key.line, fingerprint: key.fingerprint, file: key.file };
}

/**
 * What a person does on the settings page to prove the key is theirs: run the shown command
 * (ssh-keygen -Y sign over the shown code) with the private key `file`, and paste its output.
 */
export async function signShownCode(page: Page, file: string) {
  const nonce = await page.getByTestId("ssh-sign-command").getAttribute("data-nonce");
  expect(nonce).toMatch(/^faultline-[0-9a-f]+$/);
  expect(await page.getByTestId("ssh-sign-command").innerText()).toContain(`echo -n '${nonce}' | ssh-keygen -Y sign -n faultline -f ~/.ssh/id_`);
  await page.getByLabel("Signature").fill(signWithSshKey(file, nonce!));
}

/** Registers the key pair's public key for the user through the API, with its proof of possession. */
export function putSshKeyByApi(token: string, privateKey: string) {
  return putSshKey((method, path, body) => api(method, path, body, token).then((r) => ({ status: r.status, body: r.data })), privateKey);
}

/** The SSH gateway's host key fingerprint as `ssh-keygen -lf` prints it for its key file. */
export function gatewayHostKeyFingerprint(): string {
  return execFileSync("ssh-keygen", ["-l", "-f", join(DATA_DIR, "ssh_host_ed25519_key")], { encoding: "utf8" }).split(" ")[1]!;
}

/** A key pair kept on disk (for tests that connect with the real ssh client); remove `dir` after. */
export function sshKeyPair(comment = "e2e@faultline"): { dir: string; privateKey: string; publicKey: string } {
  const dir = mkdtempSync(join(tmpdir(), "faultline-e2e-sshpair-"));
  const privateKey = join(dir, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", privateKey]);
  return { dir, privateKey, publicKey: readFileSync(`${privateKey}.pub`, "utf8").trim() };
}

/** Signs in through the API (from a loopback address of its own) and returns the access token. */
export async function apiLogin(who: { username: string; password: string }): Promise<string> {
  const res = await api("POST", "/auth/login", { username_or_email: who.username, password: who.password });
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data.access_token as string;
}

// ------------------------------------------------------------------ screenshots

export const WIDTHS = { desktop: 1280, phone: 390 } as const;

/** Full-page screenshots of the current page at desktop and phone widths into screenshots/. */
export async function screenshots(page: Page, name: string) {
  mkdirSync("screenshots", { recursive: true });
  const original = page.viewportSize();
  for (const [label, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: label === "phone" ? 844 : 800 });
    await page.evaluate(() => document.fonts?.ready).catch(() => {});
    await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
