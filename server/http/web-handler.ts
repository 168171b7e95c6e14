// The web's pages: React Router's Fetch handler over the built app, its answer sent to the
// browser whole (pages) or streamed (files, exports), compressed when the browser accepts it
// (server/http/compression.ts), and visitors' pages kept whole for the next visitor
// (server/http/page-cache.ts). Replaces @react-router/express's adapter, which cannot compress and
// copied every request twice.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { createRequestHandler, type ServerBuild } from "react-router";
import { compressBuffer, type Encoding, isCompressible, MIN_COMPRESS_BYTES, pickEncoding, pipeCompressed, varyOnEncoding } from "./compression.ts";
import type { PageCache } from "./page-cache.ts";
import { BadRequestTarget, pathOf, toRequest } from "./http.ts";

type Req = IncomingMessage & { protocol: string; host: string; originalUrl: string };

export interface WebHandlerOptions {
  mode?: string;
  /** Visitors' pages kept whole (server/http/page-cache.ts), valid at `version()`. */
  pages?: { cache: PageCache; version: () => Promise<string> };
  /** The nonce of this response's Content-Security-Policy (server/http/security-headers.ts). */
  nonceOf?: (res: ServerResponse) => string | undefined;
}

export function webHandler(build: ServerBuild, loadContext: (req: Req, res: ServerResponse) => unknown, opts: WebHandlerOptions = {}) {
  const handle = createRequestHandler(build, opts.mode ?? process.env.NODE_ENV);
  const pages = opts.pages;
  return async (req: Req, res: ServerResponse, next: (err?: unknown) => void) => {
    // No page has more than a few segments, and React Router's page scripts (the partial route
    // manifest) match every prefix of the path: a 6 KB path of 3,000 segments cost seconds of CPU
    // (16 KB, half a minute). Deeper paths are not found, without rendering.
    if (segmentCount(pathOf(req.url)) > MAX_PAGE_SEGMENTS) return notFound(res);
    try {
      const nonce = opts.nonceOf?.(res);
      const keepable = pages?.cache.applies(req) ?? false;
      const version = keepable ? await pages!.version() : "";
      if (keepable) {
        const kept = pages!.cache.take(req.originalUrl, version, nonce);
        if (kept) return await sendWhole(req, res, kept.status, new Headers(kept.headers), kept.body);
      }
      // React Router checks a form post's Origin against this URL: the request's own scheme and
      // host (as Express reads them, TRUST_PROXY included), as its Express adapter did.
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const request = toRequest(req, `${req.protocol}://${req.host}`, req.originalUrl, controller.signal);
      // A multipart body that cannot be read (no boundary, broken parts) makes every action's
      // formData() throw: a 400 here, once, rather than a 500 from whichever page it was sent to.
      // Bodies are capped before this (server/http/body-limit.ts), so reading a copy costs little.
      if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "") && !(await readableForm(request))) return badRequest(res);
      const response = await handle(request, loadContext(req, res) as never);
      if (keepable && wholeBody(response)) {
        const body = Buffer.from(await response.arrayBuffer());
        pages!.cache.keep(req.originalUrl, version, { status: response.status, headers: response.headers, body, nonce });
        return await sendWhole(req, res, response.status, response.headers, body);
      }
      await sendStreamed(req, res, response);
    } catch (e) {
      if (e instanceof BadRequestTarget) return badRequest(res);
      next(e);
    }
  };
}

async function readableForm(request: Request): Promise<boolean> {
  try {
    await request.clone().formData();
    return true;
  } catch {
    return false;
  }
}

/** A request no URL can be made of (its target, or its Host header), or a form that cannot be
 *  read: a plain 400. */
function badRequest(res: ServerResponse) {
  if (res.headersSent) return void res.end();
  res.statusCode = 400;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end("Bad request\n");
}

/** Path segments a page's URL may have (app/routes.ts has at most 4). */
export const MAX_PAGE_SEGMENTS = 32;

function segmentCount(path: string) {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++; // "/"
  return n;
}

function notFound(res: ServerResponse) {
  res.statusCode = 404;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end("Not found\n");
}

/** Bodies of a known length up to this are sent whole; longer or unknown ones are streamed. */
const WHOLE_BODY_MAX = 4 * 1024 * 1024;

/** Writes a Fetch Response to Node's response, streaming its body, compressed when worth it. */
export async function sendStreamed(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const encoding = writeHead(req, res, response.status, response.headers);
  if (!response.body) {
    // HEAD: the headers a GET would have, encoding included.
    if (encoding && req.method === "HEAD") {
      res.setHeader("Content-Encoding", encoding);
      res.removeHeader("Content-Length");
    }
    return void res.end();
  }
  if (wholeBody(response)) {
    // A page (app/entry.server.tsx renders it whole): one write, compressed in one go.
    return sendBody(res, Buffer.from(await response.arrayBuffer()), encoding);
  }
  const source = Readable.fromWeb(response.body as never);
  await new Promise<void>((resolve) => {
    // Errors end the response (a client gone, a render aborted): nothing more to send.
    const done = () => resolve();
    if (encoding) {
      res.setHeader("Content-Encoding", encoding);
      res.removeHeader("Content-Length");
      pipeCompressed(source, encoding, res, done);
    } else {
      pipeline(source, res, done);
    }
  });
}

/** A body of a known length, small enough to hold whole. */
const wholeBody = (response: Response) => Boolean(response.body) && Number(response.headers.get("content-length") ?? NaN) <= WHOLE_BODY_MAX;

/** Status and headers onto Node's response; returns the content encoding to answer in. */
function writeHead(req: IncomingMessage, res: ServerResponse, status: number, headers: Headers): Encoding | null {
  res.statusCode = status;
  headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  const compressible = !headers.has("content-encoding") && isCompressible(headers.get("content-type"));
  if (compressible) varyOnEncoding(res);
  return compressible && status !== 204 && status !== 304 ? pickEncoding(req.headers["accept-encoding"]) : null;
}

/** A whole answer: status, headers and body in one write, compressed when worth it. */
async function sendWhole(req: IncomingMessage, res: ServerResponse, status: number, headers: Headers, body: Buffer): Promise<void> {
  const encoding = writeHead(req, res, status, headers);
  await sendBody(res, body, encoding);
}

async function sendBody(res: ServerResponse, body: Buffer, encoding: Encoding | null): Promise<void> {
  if (!encoding || body.length < MIN_COMPRESS_BYTES) {
    res.setHeader("Content-Length", body.length);
    return void res.end(body);
  }
  const encoded = await compressBuffer(body, encoding);
  res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", encoded.length);
  res.end(encoded);
}
