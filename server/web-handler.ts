// The web's pages: React Router's Fetch handler over the built app, its answer streamed to the
// browser, compressed when the browser accepts it (server/compression.ts). Replaces
// @react-router/express's adapter, which cannot compress and copied every request twice.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { createRequestHandler, type ServerBuild } from "react-router";
import { compressBuffer, isCompressible, MIN_COMPRESS_BYTES, pickEncoding, pipeCompressed, varyOnEncoding } from "./compression.ts";
import { toRequest } from "./http.ts";

type Req = IncomingMessage & { protocol: string; host: string; originalUrl: string };

export function webHandler(build: ServerBuild, loadContext: (req: Req, res: ServerResponse) => unknown, mode = process.env.NODE_ENV) {
  const handle = createRequestHandler(build, mode);
  return async (req: Req, res: ServerResponse, next: (err?: unknown) => void) => {
    try {
      // React Router checks a form post's Origin against this URL: the request's own scheme and
      // host (as Express reads them, TRUST_PROXY included), as its Express adapter did.
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const request = toRequest(req, `${req.protocol}://${req.host}`, req.originalUrl, controller.signal);
      const response = await handle(request, loadContext(req, res) as never);
      await sendStreamed(req, res, response);
    } catch (e) {
      next(e);
    }
  };
}

/** Bodies of a known length up to this are sent whole; longer or unknown ones are streamed. */
const WHOLE_BODY_MAX = 4 * 1024 * 1024;

/** Writes a Fetch Response to Node's response, streaming its body, compressed when worth it. */
export async function sendStreamed(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  const compressible = !response.headers.has("content-encoding") && isCompressible(response.headers.get("content-type"));
  if (compressible) varyOnEncoding(res);
  const encoding = compressible && response.status !== 204 && response.status !== 304 ? pickEncoding(req.headers["accept-encoding"]) : null;
  if (!response.body) {
    // HEAD: the headers a GET would have, encoding included.
    if (encoding && req.method === "HEAD") {
      res.setHeader("Content-Encoding", encoding);
      res.removeHeader("Content-Length");
    }
    return void res.end();
  }
  const length = Number(response.headers.get("content-length") ?? NaN);
  if (length <= WHOLE_BODY_MAX) {
    // A page (app/entry.server.tsx renders it whole): one write, compressed in one go.
    const body = Buffer.from(await response.arrayBuffer());
    if (!encoding || body.length < MIN_COMPRESS_BYTES) return void res.end(body);
    const encoded = await compressBuffer(body, encoding);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", encoded.length);
    return void res.end(encoded);
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
