import { describe, expect, it } from "vitest";
import { createPageCache, maxAgeOf } from "./page-cache.ts";

const NONCE = "AAAAAAAAAAAAAAAAAAAAAA==";
const OTHER = "BBBBBBBBBBBBBBBBBBBBBB==";
const page = (nonce = NONCE, text = "hello") =>
  Buffer.from(`<!DOCTYPE html><script nonce="${nonce}">1</script><p>${text}</p><script nonce="${nonce}">2</script>`);
const fresh = (extra: Record<string, string> = {}) =>
  new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": "private, max-age=300", ...extra });

describe("page cache", () => {
  it("gives the page back with the new answer's nonce at every place the first one was", () => {
    const c = createPageCache();
    expect(c.keep("/", "v1", { status: 200, headers: fresh(), body: page(), nonce: NONCE })).toBe(true);
    const hit = c.take("/", "v1", OTHER)!;
    expect(hit.body.toString()).toBe(page(OTHER).toString());
    // The stored copy is untouched: the next answer gets its own nonce too.
    expect(c.take("/", "v1", NONCE)!.body.toString()).toBe(page(NONCE).toString());
  });

  it("keeps only 200 HTML answers with a max-age and no cookie to set", () => {
    const c = createPageCache();
    const keep = (status: number, headers: Headers) => c.keep("/x", "v", { status, headers, body: page(), nonce: NONCE });
    expect(keep(404, fresh())).toBe(false);
    expect(keep(200, fresh({ "cache-control": "private, no-cache" }))).toBe(false);
    expect(keep(200, fresh({ "cache-control": "no-store, max-age=60" }))).toBe(false);
    expect(keep(200, new Headers({ "content-type": "text/html" }))).toBe(false);
    expect(keep(200, fresh({ "content-type": "application/json" }))).toBe(false);
    expect(keep(200, fresh({ "set-cookie": "a=b" }))).toBe(false);
    expect(c.stats().pages).toBe(0);
  });

  it("a page made at another version, or older than its max-age, is rendered again", () => {
    let t = 1_000_000;
    const c = createPageCache({ now: () => t });
    c.keep("/", "v1", { status: 200, headers: fresh({ "cache-control": "private, max-age=10" }), body: page(), nonce: NONCE });
    expect(c.take("/", "v2", OTHER)).toBeNull();
    c.keep("/", "v1", { status: 200, headers: fresh({ "cache-control": "private, max-age=10" }), body: page(), nonce: NONCE });
    t += 9_000;
    expect(c.take("/", "v1", OTHER)).not.toBeNull();
    t += 1_000;
    expect(c.take("/", "v1", OTHER)).toBeNull();
  });

  it("stays within its bytes, the least recently used page going first", () => {
    const size = page().length;
    const c = createPageCache({ maxBytes: size * 8 + 1 });
    for (let i = 0; i < 8; i++) c.keep(`/${i}`, "v", { status: 200, headers: fresh(), body: page(), nonce: NONCE });
    expect(c.take("/0", "v", OTHER)).not.toBeNull(); // /0 is now the most recent
    c.keep("/8", "v", { status: 200, headers: fresh(), body: page(), nonce: NONCE });
    expect(c.stats().bytes).toBeLessThanOrEqual(size * 8 + 1);
    expect(c.take("/1", "v", OTHER)).toBeNull();
    expect(c.take("/0", "v", OTHER)).not.toBeNull();
  });

  it("answers only GET requests of the kept pages without cookies or credentials", () => {
    const c = createPageCache();
    const req = (method: string, headers: Record<string, string> = {}, url = "/leaderboard?page=2") => ({ method, headers, url }) as never;
    expect(c.applies(req("GET"))).toBe(true);
    expect(c.applies(req("GET", {}, "/"))).toBe(true);
    // Only the pages the version covers entirely: not a public profile (a bio or a published
    // session changes it without moving the counter).
    expect(c.applies(req("GET", {}, "/profile/someone"))).toBe(false);
    expect(c.applies(req("GET", {}, "/challenges/x"))).toBe(false);
    expect(c.applies(req("GET", { cookie: "theme=light" }))).toBe(false);
    expect(c.applies(req("GET", { authorization: "Bearer x" }))).toBe(false);
    expect(c.applies(req("POST"))).toBe(false);
    expect(c.applies(req("HEAD"))).toBe(false);
  });

  it("reads max-age from Cache-Control", () => {
    expect(maxAgeOf("private, max-age=300")).toBe(300);
    expect(maxAgeOf("public")).toBeNull();
    expect(maxAgeOf("private, no-cache")).toBeNull();
    expect(maxAgeOf(null)).toBeNull();
  });
});
