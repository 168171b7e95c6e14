// The web build's static files (build/client: hashed assets under /assets, plus favicon and
// the few files of public/), served from memory. Read once at start (under a megabyte), so a
// page request never touches the disk: express.static stat()ed every URL, pages included, and
// built an error with a stack for each miss. Text files are compressed once per encoding at the
// strongest setting and kept. Hashed assets never change under their name: cached for a year,
// immutable; the other files for an hour.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { compressBuffer, type Encoding, isCompressible, MIN_COMPRESS_BYTES, pickEncoding, varyOnEncoding } from "./compression.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const SHORT = "public, max-age=3600";

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  lastModified: string;
  cacheControl: string;
  compressible: boolean;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/** A single byte range of `size` from a Range header; null: serve the whole file (several
 *  ranges, other units or a malformed header); "unsatisfiable": 416. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(m[1]);
    if (start >= size) return "unsatisfiable";
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (end < start) return null;
  }
  return { start, end };
}

/**
 * A request handler for the files under `root`; calls `next` for any other URL (the page
 * routes) without touching the disk. `/assets/*` are the build's content-hashed files.
 */
export function staticFiles(root: string) {
  const files = new Map<string, StaticFile>();
  for (const path of walk(root)) {
    const url = `/${relative(root, path).split(sep).join("/")}`;
    const body = readFileSync(path);
    const type = TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
    files.set(url, {
      body,
      type,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      lastModified: statSync(path).mtime.toUTCString(),
      cacheControl: url.startsWith("/assets/") ? IMMUTABLE : SHORT,
      compressible: isCompressible(type) && body.length >= MIN_COMPRESS_BYTES,
      encoded: {},
    });
  }

  function encoded(file: StaticFile, encoding: Encoding): Promise<Buffer> {
    let p = file.encoded[encoding];
    if (!p) {
      p = compressBuffer(file.body, encoding, "max");
      file.encoded[encoding] = p;
    }
    return p;
  }

  async function serve(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = (req.url ?? "/").split("?")[0]!;
    let file = files.get(path);
    if (!file && path.includes("%")) {
      try {
        file = files.get(decodeURIComponent(path));
      } catch {
        // a malformed escape: not one of ours
      }
    }
    if (!file) return next();

    res.setHeader("Cache-Control", file.cacheControl);
    res.setHeader("Content-Type", file.type);
    res.setHeader("Last-Modified", file.lastModified);
    res.setHeader("Accept-Ranges", "bytes");
    if (file.compressible) varyOnEncoding(res);

    const range = req.headers.range;
    // A byte range is of the file itself: ranges are served unencoded.
    const encoding = file.compressible && !range ? pickEncoding(req.headers["accept-encoding"]) : null;
    // Each representation has its own validator, so a cache never mixes their bytes.
    const etag = encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
    res.setHeader("ETag", etag);

    const inm = req.headers["if-none-match"];
    if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag || t.trim() === "*")) {
      res.statusCode = 304;
      return void res.end();
    }

    if (encoding) {
      const body = await encoded(file, encoding);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", body.length);
      return void res.end(req.method === "HEAD" ? undefined : body);
    }

    let body = file.body;
    const ifRange = req.headers["if-range"];
    if (range && (!ifRange || ifRange === file.etag || ifRange === file.lastModified)) {
      const r = parseRange(range, file.body.length);
      if (r === "unsatisfiable") {
        res.statusCode = 416;
        res.setHeader("Content-Range", `bytes */${file.body.length}`);
        return void res.end();
      }
      if (r) {
        res.statusCode = 206;
        res.setHeader("Content-Range", `bytes ${r.start}-${r.end}/${file.body.length}`);
        body = file.body.subarray(r.start, r.end + 1);
      }
    }
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    serve(req, res, next).catch(next);
  };
}
