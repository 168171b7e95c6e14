// Content encoding of answers (brotli, gzip), one rule for pages, API answers and static files.
// A cold home page moved ~442 kB uncompressed and ~134 kB gzipped; text compresses
// 4-6x. Dynamic answers are compressed at a fast setting (brotli quality 4 costs about what
// gzip 6 does and gives ~15% less); static files once, at the strongest setting, and kept
// (server/http/static-files.ts).
import type { ServerResponse } from "node:http";
import { type Readable, type Transform, pipeline } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";

export type Encoding = "br" | "gzip";

/** Smaller bodies gain nothing worth the work and the encoding's own bytes. */
export const MIN_COMPRESS_BYTES = 1024;

const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json|[a-z.+-]*\+(json|xml))|image\/svg\+xml)/i;

/** Whether a Content-Type is text worth compressing (not images, archives or event streams). */
export function isCompressible(contentType: string | null | undefined): boolean {
  return Boolean(contentType && COMPRESSIBLE.test(contentType));
}

/**
 * The encoding to answer in, from the request's Accept-Encoding (RFC 9110 12.5.3): brotli
 * when acceptable, else gzip, else none. `q=0` refuses a coding; `*` stands for any not named.
 */
export function pickEncoding(acceptEncoding: string | string[] | null | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding;
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (Number.isFinite(weight)) q.set(name === "x-gzip" ? "gzip" : name, weight);
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get("*") ?? 0;
  const br = weight("br");
  const gzip = weight("gzip");
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return null;
}

/** Adds Accept-Encoding to the answer's Vary (keeping what is there, e.g. Cookie). */
export function varyOnEncoding(res: ServerResponse): void {
  const current = res.getHeader("vary");
  const list = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.includes("*") || list.some((v) => v.toLowerCase() === "accept-encoding")) return;
  res.setHeader("Vary", [...list, "Accept-Encoding"].join(", "));
}

const FAST_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const FAST_GZIP = { level: 6 };

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compresses a whole body: fast for answers made per request, strongest for static files. */
export function compressBuffer(body: Buffer, encoding: Encoding, strength: "fast" | "max" = "fast"): Promise<Buffer> {
  if (encoding === "br") {
    const quality = strength === "max" ? zlib.constants.BROTLI_MAX_QUALITY : 4;
    return brotli(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return gzip(body, { level: strength === "max" ? zlib.constants.Z_BEST_COMPRESSION : 6 });
}

function compressor(encoding: Encoding): Transform & { flush(cb?: () => void): void } {
  return encoding === "br" ? zlib.createBrotliCompress(FAST_BROTLI) : zlib.createGzip(FAST_GZIP);
}

/**
 * Pipes a streamed body (a server-rendered page) through the encoder into `res`. What has
 * arrived is flushed as soon as the source pauses (one flush per burst of chunks, not per
 * chunk), so the browser gets the shell and each streamed part when React sends it.
 */
export function pipeCompressed(source: Readable, encoding: Encoding, res: ServerResponse, done: (err?: Error | null) => void): void {
  const z = compressor(encoding);
  let scheduled = false;
  source.on("data", () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!z.writableEnded && !z.destroyed) z.flush();
    });
  });
  pipeline(source, z, res, done);
}
