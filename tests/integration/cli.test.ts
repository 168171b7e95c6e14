// The player CLI (cli/, package.json "bin") run as a person runs it: a child process
// (`node cli/faultline.mjs`, what `npx faultline` starts) against the real server (server.ts on
// SQLite, API only, RUNTIME=none: no deployment can start here; tests/runtime/cli.test.ts plays a
// real one). Its config lives in a throwaway XDG_CONFIG_HOME. Every exit code the help promises
// is reached, and no token ever shows in anything the CLI prints.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONAL_TOKEN_TEXTS } from "#shared/contract/personal-tokens.ts";
import { SOLUTION_MAX } from "#shared/rules.ts";
import { startServer } from "../../server.ts";
import { loadConfig } from "#server/config.ts";
import { apiAt, makePlayer, type Api } from "../support/server.ts";

const BIN = new URL("../../cli/faultline.mjs", import.meta.url).pathname;
const NGINX = "nginx-broken-config";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything any run printed, to prove no token ever shows. */
const printed: string[] = [];

/** The CLI as a child process, with its own config folder and no FAULTLINE_* from outside. */
function cli(args: string[], opts: { config: string; input?: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, XDG_CONFIG_HOME: opts.config, HOME: opts.config, ...opts.env };
    if (!opts.env?.FAULTLINE_TOKEN) delete env.FAULTLINE_TOKEN;
    if (!opts.env?.FAULTLINE_URL) delete env.FAULTLINE_URL;
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.stdin.on("error", () => {});
    child.stdin.end(opts.input ?? "");
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      printed.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port nothing listens on (bound, then let go). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

let dataDir: string;
let running: Awaited<ReturnType<typeof startServer>>;
let api: Api;
let url: string;
let signIn: string;
let play: { id: string; token: string };
let read: { id: string; token: string };
const tokens: string[] = [];
const dirs: string[] = [];
const configDir = () => {
  const d = mkdtempSync(join(tmpdir(), "faultline-cli-"));
  dirs.push(d);
  return d;
};

async function makeToken(scope: "read" | "play", name: string) {
  const res = await api.call("POST", "/users/me/tokens", { token: signIn, body: { name, scope, expires_in_days: "30" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  tokens.push(res.body.token);
  return { id: res.body.id as string, token: res.body.token as string };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "faultline-cli-server-"));
  const config = loadConfig({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    SSH_PORT: "0",
    RUNTIME: "none",
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${join(dataDir, "faultline.db")}`,
    PUBLIC_URL: "http://127.0.0.1:3999",
    LOG_LEVEL: "silent",
  });
  running = await startServer(config, { web: false });
  url = `http://127.0.0.1:${running.port}`;
  api = apiAt(url);
  const player = await makePlayer(api, dataDir, { key: false });
  signIn = player.token;
  play = await makeToken("play", "laptop");
  read = await makeToken("read", "dashboard");
});

afterAll(async () => {
  await running?.close();
  for (const d of [dataDir, ...dirs]) if (d) rmSync(d, { recursive: true, force: true });
});

describe("faultline (the player CLI) against a real server", { timeout: 120_000 }, () => {
  it("logs in with a token: checked first, stored with the URL in a 0600 file in a 0700 folder", async () => {
    const config = configDir();
    const run = await cli(["login", "--token", play.token, "--url", `${url}/api/v1/`], { config });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Logged in to ${url} as \\w+ with token "laptop" \\(scope play, expires \\d{4}-`));
    const file = join(config, "faultline", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, "faultline")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url, token: play.token });

    // --json: one document on stdout, the token described, never shown.
    const again = await cli(["login", "--token", "-", "--json"], { config, input: `${play.token}\n` });
    expect(again.code, again.stderr).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc).toMatchObject({ url, token: { id: play.id, name: "laptop", scope: "play" }, config: file });
    expect(doc.token.username).toMatch(/^p/);
  });

  it("refuses an unknown token with exit 3 and stores nothing; a malformed one is a usage error (2)", async () => {
    const config = configDir();
    const unknown = `flt_${"A".repeat(43)}`;
    const run = await cli(["login", "--token", unknown, "--url", url], { config });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("Invalid or expired token");
    expect(existsSync(join(config, "faultline", "config.json"))).toBe(false);
    const bad = await cli(["login", "--token", "not-a-token", "--url", url], { config });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain("not-a-token");
    expect((await cli(["login", "--url", url], { config })).code).toBe(2);
  });

  it("lists challenges (--json parses; the filters are the API's, checked with its schema before sending)", async () => {
    const config = configDir();
    expect((await cli(["login", "--token", read.token, "--url", url], { config })).code).toBe(0);
    const all = await cli(["challenges", "--json"], { config });
    expect(all.code, all.stderr).toBe(0);
    const doc = JSON.parse(all.stdout);
    expect(doc.total).toBe(doc.challenges.length);
    expect(doc.challenges.map((c: { id: string }) => c.id)).toContain(NGINX);
    const linux = JSON.parse((await cli(["challenges", "--category", "linux", "--difficulty", "easy", "--json"], { config })).stdout);
    expect(linux.challenges.length).toBeGreaterThan(0);
    expect(linux.challenges.every((c: any) => c.category.toLowerCase() === "linux" && c.difficulty_level === "easy")).toBe(true);
    const text = await cli(["challenges", "--search", "nginx"], { config });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^CHALLENGE\s+DIFFICULTY\s+CATEGORY\s+POINTS\s+PROGRESS\s+TITLE/);
    expect(text.stdout).toContain(NGINX);
    const wrong = await cli(["challenges", "--category", "cooking"], { config });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/category/);
  });

  it("status without a deployment: the token in use and none running", async () => {
    const config = configDir();
    expect((await cli(["login", "--token", play.token, "--url", url], { config })).code).toBe(0);
    const run = await cli(["status"], { config });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Logged in to ${url} as \\w+ with token "laptop" \\(scope play, expires \\d{4}-`));
    expect(run.stdout).toContain("No deployment running.");
    const doc = JSON.parse((await cli(["status", "--json"], { config })).stdout);
    expect(doc).toMatchObject({ url, token: { id: play.id, scope: "play" }, deployment: null });
    // Nothing to end: not found (5).
    const end = await cli(["terminate"], { config });
    expect(end.code).toBe(5);
    expect(end.stderr).toContain("No deployment running.");
    expect((await cli(["terminate", NGINX], { config })).code).toBe(5);
  });

  it("a read token may not start (exit 4, the API's words), and the environment can carry the login", async () => {
    const config = configDir();
    const run = await cli(["start", NGINX, "--no-ssh"], { config, env: { FAULTLINE_TOKEN: read.token, FAULTLINE_URL: url } });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(PERSONAL_TOKEN_TEXTS.scope);
    const json = await cli(["submit", NGINX, "x", "--json"], { config, env: { FAULTLINE_TOKEN: read.token, FAULTLINE_URL: url } });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toEqual({ error: { exit_code: 4, detail: PERSONAL_TOKEN_TEXTS.scope, status: 403 } });
  });

  it("not logged in, or a revoked token: exit 3", async () => {
    const config = configDir();
    const none = await cli(["status"], { config });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("Not logged in");
    const doomed = await makeToken("play", "doomed");
    expect((await cli(["login", "--token", doomed.token, "--url", url], { config })).code).toBe(0);
    expect((await api.call("DELETE", `/users/me/tokens/${doomed.id}`, { token: signIn })).status).toBe(200);
    const run = await cli(["status"], { config });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("Invalid or expired token");
    // A file this program did not write is not a login.
    writeFileSync(join(config, "faultline", "config.json"), "{not json");
    expect((await cli(["status"], { config })).code).toBe(3);
    // logout forgets it.
    const out = await cli(["logout"], { config });
    expect(out.code).toBe(0);
    expect(existsSync(join(config, "faultline", "config.json"))).toBe(false);
    expect((await cli(["logout", "--json"], { config })).stdout).toContain('"logged_out": false');
  });

  it("submit - reads the answer from stdin and sends it to the API", async () => {
    const config = configDir();
    expect((await cli(["login", "--token", play.token, "--url", url], { config })).code).toBe(0);
    // No deployment here: the API's own answer and status decide the outcome.
    const direct = await api.call("POST", `/challenges/${NGINX}/submit`, { token: play.token, body: { solution: "the config had a typo" } });
    expect(direct.status).toBe(400);
    expect(direct.body.detail).not.toMatch(/solution/);
    // The same answer through stdin gets the same refusal (1, the API's words): a missing or
    // empty solution would have been refused for that instead.
    const run = await cli(["submit", NGINX, "-"], { config, input: "the config had a typo\n" });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`faultline: ${direct.body.detail}\n`);
    // The contract's own schema is checked before sending: empty or too long is a usage error.
    const long = await cli(["submit", NGINX, "-"], { config, input: "x".repeat(SOLUTION_MAX + 1) });
    expect(long.code).toBe(2);
    expect(long.stderr).toContain(`The answer: must be at most ${SOLUTION_MAX} characters`);
    expect((await cli(["submit", NGINX, "-"], { config, input: "  \n" })).code).toBe(2);
    expect((await cli(["submit", "../etc", "x"], { config })).code).toBe(2);
  });

  it("usage errors are exit 2", async () => {
    const config = configDir();
    for (const args of [
      [],
      ["start"],
      ["submit", NGINX],
      ["status", "--category", "x"],
      ["teleport"],
      ["status", "--nope"],
      ["start", NGINX, "--timeout", "soon"],
    ]) {
      const run = await cli(args, { config });
      expect(run.code, args.join(" ")).toBe(2);
    }
    // A token typed where a word goes is refused without being echoed (the afterAll checks).
    for (const args of [[play.token], ["start", play.token], ["login", play.token]]) expect((await cli(args, { config })).code).toBe(2);
    const help = await cli(["--help"], { config });
    expect(help.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7]) expect(help.stdout).toMatch(new RegExp(`^  ${code}  `, "m"));
  });
});

describe("faultline when the server is down or is not faultline", { timeout: 120_000 }, () => {
  let fake: Server;
  let fakeUrl: string;
  beforeAll(async () => {
    fake = createServer((req, res) => {
      if (req.url?.startsWith("/api/v1/tokens/current")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ hello: "world" }));
      } else if (req.url?.startsWith("/api/v1/challenges/active-session")) {
        res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>");
      } else if (req.url?.startsWith("/api/v1/challenges/")) {
        res
          .writeHead(429, { "content-type": "application/json", "retry-after": "42" })
          .end(JSON.stringify({ detail: "Too many attempts. Try again in 42 seconds.", retry_after: 42 }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => fake?.close(r));
  });

  it("a server that cannot be reached is exit 7", async () => {
    const config = configDir();
    const down = `http://127.0.0.1:${await closedPort()}`;
    const run = await cli(["login", "--token", play.token, "--url", down], { config });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain(`Cannot reach the faultline server at ${down}`);
    const status = await cli(["status", "--json"], { config, env: { FAULTLINE_TOKEN: play.token, FAULTLINE_URL: down } });
    expect(status.code).toBe(7);
    expect(JSON.parse(status.stdout).error.exit_code).toBe(7);
  });

  it("an answer that is not the contract's is exit 7 with a sentence, not a stack trace; 429 is 6 with retry_after", async () => {
    const config = configDir();
    const env = { FAULTLINE_TOKEN: play.token, FAULTLINE_URL: fakeUrl };
    const run = await cli(["login", "--token", play.token, "--url", fakeUrl], { config });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain("with something that is not faultline's API");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(config, "faultline", "config.json"))).toBe(false);
    const html = await cli(["terminate"], { config, env });
    expect(html.code).toBe(7);
    expect(html.stderr).toContain("HTTP 502");
    const limited = await cli(["challenges", "--json"], { config, env });
    expect(limited.code).toBe(6);
    expect(limited.stderr).toContain("retry after 42 seconds");
    expect(JSON.parse(limited.stdout).error).toMatchObject({ exit_code: 6, status: 429, retry_after: 42 });
  });
});

afterAll(() => {
  // No run printed a token (nor its random part), whatever happened.
  for (const token of tokens) for (const text of printed) expect(text).not.toContain(token.slice(4));
});
