// Helpers for the SSH gateway tests: real OpenSSH clients (ssh, scp, sftp, ssh-keygen) and tmux
// for interactive terminals. Everything listens on and connects to 127.0.0.1 only.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ClientKey {
  path: string;
  /** The public key blob, as the gateway hands it to resolve(). */
  blob: Buffer;
  line: string;
}

export async function makeKey(dir: string, name: string, type: "ed25519" | "rsa" | "ecdsa" = "ed25519"): Promise<ClientKey> {
  const path = join(dir, name);
  await run("ssh-keygen", ["-q", "-t", type, ...(type === "rsa" ? ["-b", "3072"] : []), "-N", "", "-C", name, "-f", path]);
  const line = readFileSync(`${path}.pub`, "utf8").trim();
  return { path, blob: Buffer.from(line.split(" ")[1]!, "base64"), line };
}

export interface SshResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Options every client gets: this key only, no prompts, no known_hosts. `extra` comes first
 *  (OpenSSH keeps the first value it sees for an option). LogLevel=ERROR keeps stderr to what
 *  the remote side writes; note it also hides banners (pass LogLevel=INFO, a user's default,
 *  to see the gateway's refusal messages). */
export function clientOptions(key: ClientKey, extra: string[] = []) {
  return [
    ...extra,
    "-i",
    key.path,
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "IdentityAgent=none",
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "ConnectTimeout=10",
  ];
}

const children = new Set<ChildProcess>();

/** Runs a client program to its end (or the time limit, then kills it). */
export function runClient(program: string, args: string[], opts: { input?: string | Buffer; timeoutMs?: number } = {}): Promise<SshResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
    children.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.stdin.on("error", () => {});
    child.stdin.end(opts.input ?? "");
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Starts a client and leaves it running; the caller ends it. */
export function startClient(program: string, args: string[]) {
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => (stdout += c));
  child.stderr!.on("data", (c) => (stderr += c));
  child.stdin!.on("error", () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("close", (code, signal) => {
      children.delete(child);
      r({ code, signal });
    }),
  );
  return {
    child,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

export function killClients() {
  for (const c of children) c.kill("SIGKILL");
  children.clear();
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 10_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A tmux server of our own (its own socket), for driving interactive sessions. */
export function createTmux(socketName: string) {
  const tmux = (...args: string[]) => run("tmux", ["-L", socketName, "-f", "/dev/null", ...args]).then((r) => r.stdout);
  return {
    tmux,
    start: (session: string, command: string, cols = 120, rows = 40) =>
      tmux("new-session", "-d", "-s", session, "-x", String(cols), "-y", String(rows), command),
    keys: (session: string, ...keys: string[]) => tmux("send-keys", "-t", session, ...keys),
    /** The pane's text (with the scroll-back), blank lines dropped. */
    capture: async (session: string) =>
      (await tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session))
        .split("\n")
        .filter((l) => l.trim())
        .join("\n"),
    resize: (session: string, cols: number, rows: number) => tmux("resize-window", "-t", session, "-x", String(cols), "-y", String(rows)),
    kill: () => tmux("kill-server").catch(() => ""),
  };
}

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
