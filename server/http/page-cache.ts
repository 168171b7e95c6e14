// Visitors' pages, kept whole. The home page, the catalogue and the leaderboard (KEPT_PAGES) are
// the same for every visitor without a cookie, say they stay fresh for a while
// (`Cache-Control: private, max-age=…` from app/.server/cache.ts), and they are what a popular
// site serves most. So the web keeps the rendered document of such an answer and sends it
// again to the next visitor instead of rendering it again (~3 ms of loaders and React
// per page, against a lookup here; decision 014).
//
// What keeps a kept page right:
// - Only requests with neither Cookie nor Authorization are served from here or stored: whoever
//   is signed in, carries a theme or a message in their session gets their own render.
// - Only 200 HTML answers without Set-Cookie whose Cache-Control gives a max-age are stored, and
//   one serves no longer than that max-age.
// - Each page is tied to the version it was made at: the database's change counter (bumped by
//   every solve, account and challenge change, whichever replica wrote it) and the public notice
//   (maintenance mode). A different version now means render again.
// - The Content-Security-Policy nonce must be new in every answer: the page was rendered with
//   its first answer's nonce, a random 128-bit value, and each answer from here gets that
//   value replaced, at the places it was found when stored, by the nonce of its own policy.
import type { IncomingMessage } from "node:http";

export interface KeptPage {
  status: number;
  headers: [string, string][];
  /** The document as first rendered, with `nonce` at `nonceAt`. */
  body: Buffer;
  nonce: string;
  nonceAt: number[];
  version: string;
  until: number;
}

export interface PageCache {
  /** Whether this request may be answered from (and its answer stored in) the cache. */
  applies(req: IncomingMessage): boolean;
  /** A kept page still valid at `version`, its body carrying `nonce`; null when there is none. */
  take(key: string, version: string, nonce: string | undefined): { status: number; headers: [string, string][]; body: Buffer } | null;
  /** Stores an answer when it qualifies (see above); returns whether it did. */
  keep(key: string, version: string, answer: { status: number; headers: Headers; body: Buffer; nonce: string | undefined }): boolean;
  invalidate(): void;
  stats(): { pages: number; bytes: number; hits: number; misses: number };
}

/** A page's own max-age, or null when it gives none (or says it must not be kept). */
export function maxAgeOf(cacheControl: string | null): number | null {
  if (!cacheControl || /\b(no-store|no-cache)\b/i.test(cacheControl)) return null;
  const m = /\bmax-age=(\d+)\b/i.exec(cacheControl);
  return m ? Number(m[1]) : null;
}

/** Offsets of every occurrence of `needle` in `body`. */
function offsetsOf(body: Buffer, needle: string): number[] {
  const at: number[] = [];
  if (!needle) return at;
  for (let i = body.indexOf(needle); i !== -1; i = body.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/**
 * The pages kept, by path (any query string): those whose every figure the version covers (the
 * leaderboard, the catalogue and its solve counts, the home figures). Not public profiles: a
 * bio, a published session or an incorrect submission changes them without moving the counter.
 */
export const KEPT_PAGES: ReadonlySet<string> = new Set(["/", "/challenges", "/leaderboard"]);

export function createPageCache({
  paths = KEPT_PAGES,
  maxBytes = 32 * 1024 * 1024,
  now = Date.now,
}: { paths?: ReadonlySet<string>; maxBytes?: number; now?: () => number } = {}): PageCache {
  // A Map keeps insertion order: a hit moves its page to the end, the front goes first.
  const pages = new Map<string, KeptPage>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const drop = (key: string) => {
    const p = pages.get(key);
    if (!p) return;
    bytes -= p.body.length;
    pages.delete(key);
  };

  return {
    applies(req) {
      if (req.method !== "GET" || req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      return paths.has(q === -1 ? url : url.slice(0, q));
    },

    take(key, version, nonce) {
      const p = pages.get(key);
      if (!p || p.version !== version || p.until <= now() || (p.nonceAt.length > 0 && (!nonce || nonce.length !== p.nonce.length))) {
        if (p) drop(key);
        misses++;
        return null;
      }
      pages.delete(key);
      pages.set(key, p);
      hits++;
      const body = Buffer.from(p.body);
      if (nonce) for (const at of p.nonceAt) body.write(nonce, at, "latin1");
      return { status: p.status, headers: p.headers, body };
    },

    keep(key, version, { status, headers, body, nonce }) {
      const maxAge = maxAgeOf(headers.get("cache-control"));
      if (status !== 200 || maxAge === null || maxAge <= 0) return false;
      if (!headers.get("content-type")?.startsWith("text/html") || headers.getSetCookie().length) return false;
      if (body.length > maxBytes / 8) return false;
      drop(key);
      pages.set(key, {
        status,
        // Per-answer headers (its policy, request id, length) are set by whoever sends it.
        headers: [...headers].filter(([k]) => k !== "content-length" && k !== "set-cookie"),
        body,
        nonce: nonce ?? "",
        nonceAt: offsetsOf(body, nonce ?? ""),
        version,
        until: now() + maxAge * 1000,
      });
      bytes += body.length;
      while (bytes > maxBytes) drop(pages.keys().next().value!);
      return true;
    },

    invalidate() {
      pages.clear();
      bytes = 0;
    },

    stats: () => ({ pages: pages.size, bytes, hits, misses }),
  };
}
