// Bridges Node's http request/response to a Fetch-style handler (Request → Response).
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { compressBuffer, isCompressible, MIN_COMPRESS_BYTES, pickEncoding, varyOnEncoding } from "./compression.ts";

/** A request target no URL can be made of (a Host header such as `[`, a `mailto:` absolute form):
 *  callers answer 400. */
export class BadRequestTarget extends Error {}

/**
 * The path of a raw request target (`req.url`), without its query string, and never a throw:
 * the WHATWG parser throws on targets Node's HTTP parser lets through (`//[`, `http://[`,
 * `/\[`), and a throw in an event listener (a response's `finish`, a socket's `upgrade`) ends
 * the process (docs/decisions/015-unexpected-errors.md). An absolute-form target gives its path.
 */
export function pathOf(target: string | undefined): string {
  let raw = target || "/";
  if (!raw.startsWith("/")) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(raw);
    raw = m ? (m[1] ?? "/") : "/";
  }
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}

/**
 * The request's URL on `origin` (scheme and host: this site's, or as the request names it), or
 * null when none can be made. Only the target's path and query are taken, each set on the URL as
 * a path and a query: `//evil.example/x` stays a path of this origin (new URL() would make it the
 * host), `//[` is a path instead of a throw, and an absolute-form target (`GET http://x/p`) is
 * its path. Never throws.
 */
export function requestUrl(target: string | undefined, origin: string): URL | null {
  let raw = target || "/";
  if (!raw.startsWith("/")) {
    if (!/^https?:\/\//i.test(raw)) return null; // `*` (OPTIONS), other schemes, garbage
    raw = pathOf(raw) + (raw.includes("?") ? raw.slice(raw.indexOf("?")).replace(/#.*$/, "") : "");
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.pathname !== "/" || url.search || url.username) return null; // not an origin
  const hash = raw.indexOf("#");
  if (hash !== -1) raw = raw.slice(0, hash);
  const q = raw.indexOf("?");
  url.pathname = q === -1 ? raw : raw.slice(0, q);
  url.search = q === -1 ? "" : raw.slice(q);
  return url;
}

/** Node's request as a Fetch Request on `origin`; throws BadRequestTarget when the target or the
 *  origin (a Host header) makes no URL. */
export function toRequest(req: IncomingMessage, origin: string, url = req.url ?? "/", signal?: AbortSignal): Request {
  const target = requestUrl(url, origin);
  if (!target) throw new BadRequestTarget(`no URL can be made of the request target on ${JSON.stringify(origin.slice(0, 100))}`);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k.startsWith(":")) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(target, {
    method,
    headers,
    signal,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    // @ts-expect-error Node's fetch needs this for a streamed body
    duplex: hasBody ? "half" : undefined,
  });
}

export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent) {
    // Answered already (the body cap's 413): drop what the handler made.
    await response.body?.cancel();
    return;
  }
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  const body = Buffer.from(await response.arrayBuffer());
  // JSON answers are compressed when the client accepts it and they are worth it (a leaderboard
  // page, the catalogue); never twice (server/http/compression.ts).
  const compressible = !response.headers.has("content-encoding") && isCompressible(response.headers.get("content-type"));
  if (compressible) varyOnEncoding(res);
  const encoding = compressible && body.length >= MIN_COMPRESS_BYTES ? pickEncoding(res.req?.headers["accept-encoding"]) : null;
  if (!encoding) return void res.end(body);
  const encoded = await compressBuffer(body, encoding);
  res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", encoded.length);
  res.end(encoded);
}

/**
 * The caller's address. Behind `proxyHops` trusted reverse proxies, each of which appends the
 * address it received the request from to X-Forwarded-For, the client is the entry that many
 * hops from the right: entries further left were written by the client itself and prove nothing
 * (a random first hop would otherwise give every request a fresh rate-limit budget). Same rule
 * as Express's `trust proxy` hop count; with fewer entries than hops, the left-most one.
 */
export function clientIp(req: IncomingMessage, proxyHops: number): string {
  const socket = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "unknown";
  if (proxyHops <= 0) return socket;
  const raw = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(raw) ? raw.join(",") : (raw ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  if (!hops.length) return socket;
  return hops[Math.max(hops.length - proxyHops, 0)]!.replace(/^::ffff:/, "");
}
