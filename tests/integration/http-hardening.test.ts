// The HTTP front of the real server (server.ts, API only: no web build needed) on SQLite and
// PostgreSQL: the body cap in front of the API and the web, the security headers,
// and the client address behind a proxy that rate limits key on.
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer } from "../../server.ts";
import { BODY_TOO_LARGE, MAX_BODY_BYTES } from "#server/http/body-limit.ts";
import { loadConfig } from "#server/config.ts";
import { DATABASES, type DbKind, unique } from "../support/platform.ts";
import { createDatabase } from "../support/postgres.ts";

interface Running {
  base: string;
  close(): Promise<void>;
}

async function startHttp(kind: DbKind, env: Record<string, string> = {}): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), `faultline-http-${kind}-`));
  const DATABASE_URL = kind === "sqlite" ? `sqlite:${join(dataDir, "faultline.db")}` : await createDatabase(inject("postgresUrl"));
  const config = loadConfig({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    SSH_PORT: "0",
    RUNTIME: "none",
    DATA_DIR: dataDir,
    DATABASE_URL,
    PUBLIC_URL: "http://127.0.0.1:3999",
    LOG_LEVEL: "silent",
    ...env,
  });
  const running = await startServer(config, { web: false });
  return {
    base: `http://127.0.0.1:${running.port}`,
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes of the body this client had handed to its socket when the answer came. */
  written: number;
}

/**
 * A POST whose body is `total` bytes of `fill`, sent in 64 KiB chunks: with a Content-Length, or
 * chunked without one. Resolves with the answer as soon as it arrives, even while the upload is
 * still going (the server may answer and close early); the client then stops sending.
 */
function upload(base: string, path: string, opts: { total: number; chunked?: boolean; contentType?: string; fill?: string }): Promise<RawAnswer> {
  const url = new URL(path, base);
  const chunk = Buffer.alloc(64 * 1024, opts.fill ?? "a");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": opts.contentType ?? "application/json",
          ...(opts.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(opts.total) }),
        },
      },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, written }));
        res.on("error", () => resolve({ status: res.statusCode!, headers: res.headers, body, written }));
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered && written < opts.total) {
        const part = chunk.subarray(0, Math.min(chunk.length, opts.total - written));
        written += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe.each(DATABASES)("HTTP front on %s", (kind) => {
  let s: Running;
  beforeAll(async () => {
    s = await startHttp(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  describe("request bodies are capped before they are read", () => {
    it("refuses a declared 1 MB body to the API with 413 and the JSON envelope", async () => {
      const res = await upload(s.base, "/api/v1/auth/login", { total: 1024 * 1024 });
      expect(res.status).toBe(413);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ detail: BODY_TOO_LARGE });
    });

    it("refuses a declared 1 MB form post to a web page with 413 and a short page", async () => {
      const res = await upload(s.base, "/login", { total: 1024 * 1024, contentType: "application/x-www-form-urlencoded" });
      expect(res.status).toBe(413);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("Request too large");
      expect(res.body.length).toBeLessThan(1000);
    });

    it("cuts off a chunked upload without Content-Length once it passes the cap, and memory stays flat", async () => {
      global.gc?.();
      const before = process.memoryUsage();
      const res = await upload(s.base, "/api/v1/auth/login", { total: 64 * 1024 * 1024, chunked: true });
      const after = process.memoryUsage();
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({ detail: BODY_TOO_LARGE });
      // The server and this client share the process: 64 MB buffered (and its text copy) would
      // show in the heap; the cap keeps the server's part to one chunk past 160 KiB.
      expect(after.heapUsed + after.external + after.arrayBuffers - (before.heapUsed + before.external + before.arrayBuffers)).toBeLessThan(32 * 1024 * 1024);
      // The server is still fine.
      const ok = await fetch(`${s.base}/api/v1/auth/oauth/providers`);
      expect(ok.status).toBe(200);
    });

    it("accepts the largest legitimate bodies: a 16 384-character solution, as JSON and as a URL-encoded form", async () => {
      const solution = "界".repeat(16_384); // 3 UTF-8 bytes each
      const json = JSON.stringify({ solution, deployment_uid: "x".repeat(100) });
      const form = new URLSearchParams({ solution, deployment_uid: "x".repeat(100), intent: "submit" }).toString();
      expect(Buffer.byteLength(form)).toBeGreaterThan(147_000);
      expect(Buffer.byteLength(form)).toBeLessThan(MAX_BODY_BYTES);
      const api = await fetch(`${s.base}/api/v1/challenges/nginx-broken-config/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: json,
      });
      expect(api.status).toBe(401); // read, validated and refused for want of a token, not for size
      const web = await fetch(`${s.base}/challenges/nginx-broken-config`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
      expect(web.status).not.toBe(413);
    });
  });

  describe("security headers", () => {
    it("sends a CSP with a fresh nonce on every answer, API included, and no HSTS over plain http", async () => {
      const a = await fetch(`${s.base}/api/v1/auth/oauth/providers`);
      const b = await fetch(`${s.base}/api/v1/auth/oauth/providers`);
      const csp = a.headers.get("content-security-policy") ?? "";
      for (const directive of [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
        "connect-src 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/'unsafe-inline'[^;]*;?\s*$|script-src[^;]*'unsafe-inline'/);
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{22,})'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(b.headers.get("content-security-policy")).not.toContain(nonce);
      expect(a.headers.get("x-frame-options")).toBe("DENY");
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
      expect(a.headers.get("strict-transport-security")).toBeNull();
    });
  });

  describe("the client address behind a proxy", () => {
    let proxied: Running;
    beforeAll(async () => {
      proxied = await startHttp(kind, { TRUST_PROXY: "true" });
    });
    afterAll(async () => {
      await proxied?.close();
    });

    const login = (xff: string) =>
      fetch(`${proxied.base}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": xff },
        body: JSON.stringify({ username_or_email: unique("spray"), password: "password123" }),
      });
    const randomHop = () => `203.0.113.${1 + Math.floor(Math.random() * 250)}`;

    it("keys the per-address limit on the proxy's entry: spoofed first hops do not reset it", async () => {
      const client = "198.51.100.77";
      for (let i = 0; i < 30; i++) expect((await login(`${randomHop()}, ${client}`)).status).toBe(401);
      const limited = await login(`${randomHop()}, ${randomHop()}, ${client}`);
      expect(limited.status).toBe(429);
      expect((await limited.json()).detail).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      // Another client behind the same proxy is not affected.
      expect((await login(`${client}, 198.51.100.78`)).status).toBe(401);
    });
  });
});

describe("HSTS when PUBLIC_URL is https", () => {
  it("sends Strict-Transport-Security for one year", async () => {
    const s = await startHttp("sqlite", { PUBLIC_URL: "https://faultline.example" });
    try {
      const res = await fetch(`${s.base}/api/v1/auth/oauth/providers`);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    } finally {
      await s.close();
    }
  });
});
