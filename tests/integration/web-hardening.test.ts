// The built web behind the real server (server.ts with build/: `npm run build` first; the test
// script builds it): the CSP nonce on every inline script, redirects after sign-in
// that stay on the site, the OAuth callback's fixed error text, info pages for names
// of Object.prototype members and the body cap on a page's action.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../support/platform.ts";

let base: string;
let close: () => Promise<void>;

// server.ts in a process of its own, as in production: loading the web build into vitest's
// module graph would give React Router two copies (ESM here, CommonJS in the Express adapter).
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-web-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      SSH_PORT: "0",
      RUNTIME: "none",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_URL: "http://127.0.0.1:3999",
      LOG_LEVEL: "info",
      GITHUB_CLIENT_ID: "test-client",
      GITHUB_CLIENT_SECRET: "test-secret",
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
});
afterAll(async () => {
  await close?.();
});

describe("Content-Security-Policy on pages", () => {
  it("gives every inline script of a page the nonce of its CSP header, fresh per request", async () => {
    const seen = new Set<string>();
    for (const path of ["/", "/login", "/challenges", "/leaderboard"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(seen.has(nonce!)).toBe(false);
      seen.add(nonce!);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) {
        // External module scripts come from our own origin; inline ones must carry the nonce.
        if (/\bsrc=/.test(tag)) expect(tag).toMatch(/src="\//);
        else expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
      }
    }
  });
});

describe("where sign-in sends the browser", () => {
  let user: { username: string; password: string };
  beforeAll(async () => {
    const username = unique("redir");
    user = { username, password: `pw-${username}-long enough` };
    const res = await fetch(`${base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, email: `${username}@example.test`, password: user.password }),
    });
    expect(res.status).toBe(201);
  });

  async function signInTo(redirectTo: string): Promise<string | null> {
    const res = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ username: user.username, password: user.password, redirectTo }).toString(),
    });
    expect(
      [302, 303],
      await res
        .clone()
        .text()
        .then((t) => t.slice(0, 200)),
    ).toContain(res.status);
    return res.headers.get("location");
  }

  it("keeps a local redirectTo, and sends anything that could leave the site to /profile", async () => {
    expect(await signInTo("/challenges?category=linux")).toBe("/challenges?category=linux");
    for (const hostile of ["/\t/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/"]) {
      const location = await signInTo(hostile);
      expect(location, JSON.stringify(hostile)).toBe("/profile");
      expect(new URL(location!, "https://faultline.example/login").origin).toBe("https://faultline.example");
    }
  });
});

describe("the OAuth callback page", () => {
  // The page first shows a processing state; with JavaScript it posts to its own action, without
  // it the page reloads itself with nojs=1 and the loader does the work (app/routes/oauth-callback.tsx).
  // Every one of the three answers: never the provider's error_description, however it arrives.
  const lure = "Your account is locked. Call +1 555 0100 to unlock it.";
  const callback = `/auth/oauth/github/callback?error=access_denied&error_description=${encodeURIComponent(lure)}&state=x`;
  const expectNoLure = (html: string) => {
    expect(html).not.toContain("Your account is locked");
    expect(html).not.toContain("555 0100");
  };

  it("shows the processing state first, its no-JavaScript reload staying on the callback", async () => {
    const res = await fetch(`${base}${callback}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="oauth-processing"');
    expect(html).toContain("Processing authentication...");
    expect(html).not.toContain("Authentication failed");
    expectNoLure(html);
    // The refresh goes to the same path (not a URL taken from the link), with nojs=1.
    const refresh = /<meta http-equiv="refresh" content="0;url=([^"]*)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(refresh).toBeDefined();
    const target = new URL(refresh!, base);
    expect(target.origin).toBe(base);
    expect(target.pathname).toBe("/auth/oauth/github/callback");
    expect(target.searchParams.get("nojs")).toBe("1");
  });

  it("shows the fixed 'Authentication failed', never the error_description from the link", async () => {
    // Without JavaScript: the reload the processing page asks for.
    const nojs = await fetch(`${base}${callback}&nojs=1`);
    expect(nojs.status).toBe(200);
    const page = await nojs.text();
    expect(page).toContain("Authentication failed");
    expect(page).toContain('data-testid="oauth-error"');
    expectNoLure(page);
    // With JavaScript: the page's post to its action (a fresh browser: the state x was never started).
    const posted = await fetch(`${base}${callback}`, { method: "POST", headers: { origin: base } });
    expect(posted.status).toBe(200);
    const answer = await posted.text();
    expect(answer).toContain("Authentication failed");
    expectNoLure(answer);
  });
});

describe("info pages", () => {
  it("answers 404, not 500, for names of Object.prototype members", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect((await fetch(`${base}/${name}`)).status, name).toBe(404);
    }
    expect((await fetch(`${base}/privacy`)).status).toBe(200);
  });
});

describe("body cap on a page's action", () => {
  it("cuts off a chunked form post to /login past the cap with 413", async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = httpRequest(
        `${base}/login`,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked", origin: base },
        },
        (r) => {
          answered = true;
          let body = "";
          r.setEncoding("utf8");
          r.on("data", (c) => (body += c));
          r.on("end", () => resolve({ status: r.statusCode!, body }));
          r.on("error", () => resolve({ status: r.statusCode!, body }));
        },
      );
      req.on("error", (e) => !answered && reject(e));
      const chunk = Buffer.alloc(64 * 1024, "a");
      req.write("username=");
      let sent = 0;
      // One chunk per turn of the event loop, as a browser's upload over a network would go: a
      // client writing in a tight loop never reads the 413 before the server's linger (1 MiB,
      // body-limit.ts) ends and the kernel resets the connection (ECONNRESET on a loaded host).
      const pump = () => {
        if (answered) return;
        if (sent >= 32 * 1024 * 1024) return void req.end();
        sent += chunk.length;
        if (!req.write(chunk)) req.once("drain", () => setImmediate(pump));
        else setImmediate(pump);
      };
      pump();
    });
    expect(res.status).toBe(413);
    expect(res.body).toContain("Request too large");
    // The site still answers.
    expect((await fetch(`${base}/login`)).status).toBe(200);
  });
});
