// Where `faultline login` keeps the server's URL and the personal API token:
// $XDG_CONFIG_HOME/faultline/config.json, else ~/.config/faultline/config.json; the folder is
// 0700 and the file 0600 (written to a temporary file of that mode, then renamed into place, so
// the token is never readable by others, not even for a moment). FAULTLINE_URL and
// FAULTLINE_TOKEN, when set, are used instead (a CI job need not write a file).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { PERSONAL_TOKEN_PATTERN } from "#shared/personal-token-rules.ts";
import { CliError, EXIT } from "./errors.ts";

export const DEFAULT_URL = "http://localhost:3000";

const storedSchema = z.object({ url: z.string(), token: z.string() });
export type Login = z.infer<typeof storedSchema>;

/** The folder of the CLI's files (XDG base directory rules: a relative XDG_CONFIG_HOME is ignored). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".config"), "faultline");
}
export const configPath = (env: NodeJS.ProcessEnv = process.env) => join(configDir(env), "config.json");

/** `https://host/` or `https://host/api/v1` alike: the site's origin and path, no trailing slash. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(EXIT.usage, `Not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError(EXIT.usage, `Not an http(s) URL: ${raw}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}`;
}

export function checkTokenShape(token: string): string {
  const t = token.trim();
  // Never echo what was given: it may be a real secret pasted in the wrong place.
  if (!PERSONAL_TOKEN_PATTERN.test(t))
    throw new CliError(EXIT.usage, "That is not a personal API token: they start with flt_ (make one in Settings, Security, API tokens).");
  return t;
}

/** The stored login, or the environment's; null when there is neither. */
export function readLogin(env: NodeJS.ProcessEnv = process.env): (Login & { source: string }) | null {
  const path = configPath(env);
  let stored: Login | null = null;
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    // no file: not logged in (unless the environment says so)
  }
  if (text !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const ok = storedSchema.safeParse(parsed);
    if (!ok.success) throw new CliError(EXIT.unauthenticated, `${path} is not a login this program wrote. Run \`faultline login --token flt_...\` again.`);
    stored = ok.data;
  }
  const token = env.FAULTLINE_TOKEN?.trim() || stored?.token;
  if (!token) return null;
  const url = env.FAULTLINE_URL?.trim() ? normaliseUrl(env.FAULTLINE_URL.trim()) : (stored?.url ?? DEFAULT_URL);
  return { url, token, source: env.FAULTLINE_TOKEN?.trim() ? "FAULTLINE_TOKEN" : path };
}

/** Stores the login: folder 0700, file 0600, replaced in one rename. */
export function writeLogin(login: Login, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
  return path;
}

/** Forgets the stored login; whether there was one. */
export function removeLogin(env: NodeJS.ProcessEnv = process.env): boolean {
  const path = configPath(env);
  try {
    rmSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A file beside the login (the gateway's known_hosts line), 0600 like it. */
export function writeBeside(name: string, text: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}
