// Request bodies are capped before anything reads them: the one process also runs the SSH
// gateway, the live channel and the worker, so a single unbounded upload (the API used to call
// request.text(), web actions request.formData()) could exhaust its memory for everybody.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { DomainError, tooLarge } from "#server/core/errors.ts";

/**
 * The largest body any form or API call legitimately sends, with room to spare. The biggest is
 * a solution of 16 384 characters (shared/contract/inputs.ts) posted by the web form: URL-encoded,
 * a character can take 9 bytes (3 UTF-8 bytes, each written %XX), so 147 456 bytes. As JSON the
 * same text is at most 6 bytes a character (\uXXXX), an SSH key field at most 16 000 characters.
 */
export const MAX_BODY_BYTES = 160 * 1024;
export const BODY_TOO_LARGE = `The request body is too large (at most ${MAX_BODY_BYTES / 1024} KiB).`;

/** Headers and the whole body must arrive within these (Node's defaults are 60 s and 300 s). */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 30_000;

const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Request too large | faultline</title><h1>Request too large</h1><p>${BODY_TOO_LARGE}</p><p><a href="/">faultline</a></p></html>`;

/**
 * After a 413, the rest of an upload is read and thrown away for at most this long and this
 * much, then the connection is closed. Closing at once would make the kernel answer the client's
 * next bytes with a reset, and a client still sending often loses the 413 it was about to read.
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Express middleware in front of the API and the web: refuses a declared Content-Length above
 * the cap without reading, and counts the bytes of every body as it streams (chunked uploads
 * have no length), answering 413 the moment the count passes the cap. The handler reading the
 * body gets an error (never a cut-off body), and the connection closes after the answer.
 */
export function limitBodies(opts: { isApi: (path: string) => boolean; maxBytes?: number }) {
  const max = opts.maxBytes ?? MAX_BODY_BYTES;
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const refuse = () => {
      if (res.headersSent) {
        // An answer is already on its way (the handler did not need the rest): stop reading.
        req.socket.destroy();
        return;
      }
      closeAfterAnswer(req);
      res.setHeader("Connection", "close");
      res.status(413);
      if (opts.isApi(req.originalUrl)) res.json({ detail: BODY_TOO_LARGE });
      else res.type("html").send(page);
    };
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > max) return refuse();
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= max) return;
      req.off("data", count);
      // Readers (the API's and React Router's body streams) get no more data, then an error.
      // Not at once: this chunk is still being handed to them (emit works on a copy of the
      // listener list), and a reader that failed first would throw on it.
      for (const reader of req.listeners("data")) req.off("data", reader as (c: Buffer) => void);
      process.nextTick(() => {
        if (req.listenerCount("error") > 0) req.emit("error", new Error(BODY_TOO_LARGE));
      });
      refuse();
    };
    // Paused first: a 'data' listener would otherwise start the flow before the handler reads,
    // and the handler would miss the first chunks. Readers resume the stream when they pull.
    req.pause();
    req.on("data", count);
    next();
  };
}

/** Once the answer is out, half-close, drain a little of the upload, then close (LINGER_*). */
function closeAfterAnswer(req: ExpressRequest) {
  const socket = req.socket;
  // Node calls destroySoon() when a `Connection: close` answer has been written.
  socket.destroySoon = () => {
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
    socket.end();
    if (req.complete) return void setImmediate(close);
    req.on("data", (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) close();
    });
    req.once("end", close);
    req.resume();
  };
}

/**
 * Reads a Fetch request's body as text, at most `max` bytes (413 past it). The HTTP transport
 * caps bodies already; this keeps the API safe for any other caller of its handler.
 */
export async function readBodyText(request: Request, max = MAX_BODY_BYTES): Promise<string> {
  const body = request.body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge(BODY_TOO_LARGE);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof DomainError) throw e;
    // The transport stopped the upload (too large, or the client went away).
    throw tooLarge(BODY_TOO_LARGE);
  }
  return Buffer.concat(chunks).toString("utf8");
}
