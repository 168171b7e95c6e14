// The request path of the server-rendered web, against the real server (server.ts
// with build/, in a process of its own as in production): content encoding of pages, API
// answers and static files (negotiation, Vary, HEAD, Range, validators, never encoded twice);
// visitors' pages never touch the sign-in session store; the identity check on every page
// reads only the account and still signs out a disabled account or an expired session.
// Over 350 lines: every odd request path against one running server, each with the page it must
//  give.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../support/platform.ts";

let base: string;
let dataDir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "faultline-webpath-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      SSH_PORT: "0",
      RUNTIME: "none",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_URL: "http://127.0.0.1:3999",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (c: Buffer) => {
      log += c;
      const m = /faultline listening on http:\/\/[^:]+:(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${log}`)));
  });
  base = `http://127.0.0.1:${port}`;
  close = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
}, 60_000);
afterAll(async () => {
  await close?.();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes on the wire, not decoded (Node's fetch would decode them). */
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** The username the page's navigation shows as signed in, or null (a visitor's page). */
const signedInAs = (html: string) => /data-testid="nav-username"[^>]*>~(?:<!-- -->)?([^<]+)</.exec(html)?.[1] ?? null;

const vary = (r: Raw) => String(r.headers.vary ?? "").toLowerCase();

describe("content encoding", () => {
  it("pages: brotli or gzip as accepted, identity otherwise, always Vary: Accept-Encoding", async () => {
    const br = await raw("/", { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    // Decoded once it is the page: not encoded twice.
    const page = brotliDecompressSync(br.body).toString();
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(br.body.length).toBeLessThan(page.length / 2);
    expect(vary(br)).toContain("accept-encoding");
    expect(vary(br)).toContain("cookie"); // the page's own Vary is kept

    const gzip = await raw("/challenges", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toContain('data-testid="challenge-filters"');

    for (const none of [undefined, "identity", "br;q=0, gzip;q=0", "deflate"]) {
      const plain = await raw("/leaderboard", none === undefined ? {} : { "accept-encoding": none });
      expect(plain.headers["content-encoding"], none).toBeUndefined();
      expect(plain.body.toString().startsWith("<!DOCTYPE html>"), none).toBe(true);
      expect(vary(plain)).toContain("accept-encoding");
    }
    // The client's preference by weight.
    expect((await raw("/", { "accept-encoding": "br;q=0.5, gzip;q=1" })).headers["content-encoding"]).toBe("gzip");
    expect((await raw("/", { "accept-encoding": "*" })).headers["content-encoding"]).toBe("br");
  });

  it("HEAD of a page answers the GET's headers without a body", async () => {
    const head = await raw("/", { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers["content-type"]).toMatch(/^text\/html/);
    expect(head.body.length).toBe(0);
  });

  it("API answers: JSON worth compressing is compressed, small ones are not", async () => {
    const list = await raw("/api/v1/challenges/?limit=100", { "accept-encoding": "gzip, br" });
    expect(list.status).toBe(200);
    expect(list.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(list.body).toString()).challenges.length).toBeGreaterThan(0);
    expect(vary(list)).toContain("accept-encoding");
    const small = await raw("/api/v1/auth/oauth/providers", { "accept-encoding": "gzip" });
    expect(small.status).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toHaveProperty("github");
  });

  it("hashed assets: immutable for a year, encoded once per encoding with their own ETag, 304 on a match", async () => {
    const html = (await raw("/")).body.toString();
    const asset = /href="(\/assets\/entry\.client-[^"]+\.js)"/.exec(html)![1]!;
    const plain = await raw(asset);
    expect(plain.status).toBe(200);
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.headers["content-type"]).toMatch(/javascript/);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(vary(plain)).toContain("accept-encoding");

    const br = await raw(asset, { "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    expect((await raw(asset, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) })).status).toBe(304);
    expect((await raw(asset, { "if-none-match": String(plain.headers.etag) })).status).toBe(304);
    // The other representation's validator does not match.
    expect((await raw(asset, { "if-none-match": String(br.headers.etag) })).status).toBe(200);

    const head = await raw(asset, { "accept-encoding": "gzip" }, "HEAD");
    const gz = await raw(asset, { "accept-encoding": "gzip" });
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers["content-length"]).toBe(String(gz.body.length));
    expect(head.body.length).toBe(0);

    // Other files of the build: an hour.
    expect((await raw("/favicon.svg")).headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("a Range of an asset is of its bytes, unencoded, whatever the client accepts", async () => {
    const html = (await raw("/")).body.toString();
    const asset = /href="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const whole = (await raw(asset)).body;
    const part = await raw(asset, { range: "bytes=0-99", "accept-encoding": "br, gzip" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.headers["content-range"]).toBe(`bytes 0-99/${whole.length}`);
    expect(part.body.equals(whole.subarray(0, 100))).toBe(true);
    const tail = await raw(asset, { range: "bytes=-10" });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.subarray(whole.length - 10))).toBe(true);
    expect((await raw(asset, { range: `bytes=${whole.length}-` })).status).toBe(416);
  });

  it("a URL that is no file of the build is a page (404 from the web), not a static miss", async () => {
    const res = await raw("/assets/no-such-file.js");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
  });
});

describe("visitors and the sign-in session store", () => {
  let user: { username: string; password: string };
  let cookie: string;
  const db = () => new Database(join(dataDir, "faultline.db"));

  beforeAll(async () => {
    const username = unique("path");
    user = { username, password: `pw-${username}-long enough` };
    const reg = await fetch(`${base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, email: `${username}@example.test`, password: user.password }),
    });
    expect(reg.status).toBe(201);
  });

  async function signIn(): Promise<string> {
    const res = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ username: user.username, password: user.password, redirectTo: "/" }).toString(),
    });
    expect([302, 303]).toContain(res.status);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  it("a visitor's pages are served with the session store gone; a signed-in request does need it", async () => {
    cookie = await signIn();
    const sqlite = db();
    try {
      // The store's table disappears: any read of a session would fail.
      sqlite.exec("ALTER TABLE web_sessions RENAME TO web_sessions_away");
      for (const path of ["/", "/challenges", "/leaderboard"]) {
        const res = await raw(path, { cookie: "fl_banner_dismissed=x; theme=light" });
        expect(res.status, path).toBe(200);
        expect(res.headers["set-cookie"], path).toBeUndefined();
      }
      // The same page with a session cookie reads the store, and fails without it.
      expect((await raw("/", { cookie })).status).toBe(500);
    } finally {
      sqlite.exec("ALTER TABLE web_sessions_away RENAME TO web_sessions");
      sqlite.close();
    }
  });

  it("the identity check shows the signed-in user and reads no statistics", async () => {
    const page = await raw("/leaderboard", { cookie });
    expect(page.status).toBe(200);
    expect(signedInAs(page.body.toString())).toBe(user.username);

    const login = (await (
      await fetch(`${base}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username_or_email: user.username, password: user.password }),
      })
    ).json()) as { access_token: string };
    const identity = (await (await fetch(`${base}/api/v1/auth/identity`, { headers: { authorization: `Bearer ${login.access_token}` } })).json()) as Record<
      string,
      unknown
    >;
    expect(identity).toMatchObject({ username: user.username, is_admin: false });
    for (const stat of ["total_points", "rank", "achievements", "level", "solve_rate"]) expect(identity).not.toHaveProperty(stat);
    expect((await fetch(`${base}/api/v1/auth/identity`)).status).toBe(401);
    // /profile still shows the statistics (it asks for them itself).
    const profile = (await raw("/profile", { cookie })).body.toString();
    expect(profile).toContain('data-testid="profile-points"');
  });

  it("signs out a disabled account on its next page", async () => {
    const own = await signIn();
    expect(signedInAs((await raw("/", { cookie: own })).body.toString())).toBe(user.username);
    const sqlite = db();
    const { id } = sqlite.prepare("SELECT id FROM users WHERE username = ?").get(user.username) as { id: string };
    try {
      sqlite.prepare("INSERT INTO disabled_users (user_id, disabled_at) VALUES (?, ?)").run(id, Math.floor(Date.now() / 1000));
      const res = await raw("/", { cookie: own });
      expect(res.status).toBe(200);
      expect(signedInAs(res.body.toString())).toBeNull();
      // The sign-in ends: the session moves to a new id (carrying only the login page's message)
      // and the old cookie signs nobody in.
      expect(String(res.headers["set-cookie"])).toMatch(/^__faultline=/);
      expect(signedInAs((await raw("/", { cookie: own })).body.toString())).toBeNull();
    } finally {
      sqlite.prepare("DELETE FROM disabled_users WHERE user_id = ?").run(id);
      sqlite.close();
    }
  });

  it("an expired session is a visitor", async () => {
    const own = await signIn();
    const sqlite = db();
    try {
      const { id } = sqlite.prepare("SELECT id FROM users WHERE username = ?").get(user.username) as { id: string };
      sqlite.prepare("UPDATE web_sessions SET expires_at = 1 WHERE user_id = ?").run(id);
    } finally {
      sqlite.close();
    }
    const res = await raw("/", { cookie: own });
    expect(res.status).toBe(200);
    expect(signedInAs(res.body.toString())).toBeNull();
  });
});

describe("visitors' pages kept whole (server/http/page-cache.ts)", () => {
  const nonces = (r: Raw) => ({
    header: /'nonce-([^']+)'/.exec(String(r.headers["content-security-policy"]))?.[1],
    body: [...new Set([...r.body.toString().matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))],
  });
  async function register(username: string, password: string) {
    const reg = await fetch(`${base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, email: `${username}@example.test`, password }),
    });
    expect(reg.status).toBe(201);
  }
  const withoutNonces = (r: Raw) => r.body.toString().replace(/nonce="[^"]+"/g, "");
  const statValue = (html: string, key: string) =>
    Number(new RegExp(`data-testid="stat-${key}"[\\s\\S]*?data-testid="stat-value"[^>]*>([\\d,]+)<`).exec(html)?.[1]?.replace(/,/g, ""));

  it("every answer carries a nonce of its own, the one its policy names; the page is otherwise the same", async () => {
    const answers = [await raw("/leaderboard"), await raw("/leaderboard"), await raw("/leaderboard")];
    const seen = new Set<string>();
    for (const a of answers) {
      expect(a.status).toBe(200);
      const n = nonces(a);
      expect(n.header).toBeTruthy();
      // Every inline script of the page carries this answer's nonce and no other.
      expect(n.body).toEqual([n.header]);
      seen.add(n.header!);
      expect(Number(a.headers["content-length"])).toBe(a.body.length);
    }
    expect(seen.size).toBe(3);
    expect(withoutNonces(answers[2]!)).toBe(withoutNonces(answers[0]!));
  });

  it("a change shows at once: a new account counts in the home figures on the next visit", async () => {
    const before = statValue((await raw("/")).body.toString(), "hackers");
    expect(before).toBeGreaterThanOrEqual(0);
    expect(statValue((await raw("/")).body.toString(), "hackers")).toBe(before); // kept, same figure
    const username = unique("kept");
    await register(username, `pw-${username}-long enough`);
    expect(statValue((await raw("/")).body.toString(), "hackers")).toBe(before + 1);
  });

  it("a kept page never reaches a signed-in browser, and a signed-in page is never kept for visitors", async () => {
    const username = unique("keep");
    const password = `pw-${username}-long enough`;
    await register(username, password);
    const login = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ username, password, redirectTo: "/" }).toString(),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/__faultline=/);
    for (const path of ["/", "/leaderboard", "/challenges"]) {
      expect(signedInAs((await raw(path)).body.toString()), path).toBeNull(); // a visitor's page, kept now
      const mine = await raw(path, { cookie });
      expect(signedInAs(mine.body.toString()), path).toBe(username);
      expect(mine.headers["cache-control"], path).toBe("private, no-cache");
      expect(signedInAs((await raw(path)).body.toString()), path).toBeNull();
    }
  });

  it("the catalogue: a player's progress never reaches a visitor's kept page; each query string is its own page; a failed page is not kept", async () => {
    const username = unique("prog");
    const password = `pw-${username}-long enough`;
    await register(username, password);
    const sqlite = new Database(join(dataDir, "faultline.db"));
    try {
      const { id } = sqlite.prepare("SELECT id FROM users WHERE username = ?").get(username) as { id: string };
      const { id: challenge } = sqlite.prepare("SELECT id FROM challenges WHERE is_approved = 1 ORDER BY id LIMIT 1").get() as { id: string };
      sqlite
        .prepare("INSERT INTO solves (user_id, challenge_id, deployment_id, points, solve_seconds, solved_at) VALUES (?, ?, 'd', 100, 60, ?)")
        .run(id, challenge, Math.floor(Date.now() / 1000));
    } finally {
      sqlite.close();
    }
    const login = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ username, password, redirectTo: "/" }).toString(),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const cardsOf = (r: Raw) => r.body.toString().match(/data-testid="challenge-card"/g)?.length ?? 0;
    const all = cardsOf(await raw("/challenges"));
    expect(all).toBeGreaterThan(1);
    for (const path of ["/challenges", "/challenges?progress=solved", "/challenges?sort=solves&progress=solved"]) {
      // The visitor first (their page is kept now), the player, then the visitor again (kept).
      const first = await raw(path);
      const mine = await raw(path, { cookie });
      const again = await raw(path);
      expect(mine.body.toString(), path).toContain('data-progress="solved"');
      expect(mine.headers["cache-control"], path).toBe("private, no-cache");
      for (const v of [first, again]) {
        expect(v.body.toString(), path).not.toMatch(/data-progress=|data-testid="challenge-progress"|name="progress"/);
        // A progress word in a visitor's URL filters nothing.
        expect(cardsOf(v), path).toBe(all);
      }
    }
    expect(cardsOf(await raw("/challenges?progress=solved", { cookie }))).toBe(1);
    // Another query string is another page: page 2 of a library under 100 is empty, page 1 is not.
    expect((await raw("/challenges?page=2")).body.toString()).toContain("No challenges found");
    expect(cardsOf(await raw("/challenges?page=2"))).toBe(0);
    expect(cardsOf(await raw("/challenges?page=1"))).toBe(all);
    // Hostile values read as the defaults; an answer the API refused is shown and never kept.
    expect(cardsOf(await raw(`/challenges?page=${"9".repeat(300)}&sort=rating`))).toBe(0);
    expect(cardsOf(await raw("/challenges?page=-3&sort=rating&progress=everything"))).toBe(all);
    const failed = await raw("/challenges?category=cooking");
    expect(failed.body.toString()).toContain("category: must be one of");
    expect(failed.headers["cache-control"]).toBe("no-store");
  });
});
