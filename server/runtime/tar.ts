// Tar helpers for the engine's archive endpoints (how files cross into and out of containers
// without running anything inside them).
import { posix } from "node:path";
import { Readable } from "node:stream";
import tar from "tar-stream";

export async function packFile(name: string, content: Buffer, options: { mode?: number; uid?: number; gid?: number } = {}): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name, size: content.length, mode: options.mode ?? 0o644, uid: options.uid ?? 0, gid: options.gid ?? 0, mtime: new Date() }, content);
  pack.finalize();
  return streamToBuffer(pack as unknown as Readable);
}

export interface TarFile {
  name: string;
  type: string;
  mode: number;
  size: number;
  linkname?: string | null;
  content: Buffer;
}

/** The first entry of an archive (a file read through the engine), bounded in size. */
export async function firstEntry(input: Readable, maxBytes: number): Promise<TarFile | null> {
  const extract = tar.extract();
  let found: TarFile | null = null;
  let error: Error | null = null;
  extract.on("entry", (header, stream, next) => {
    if (found || error) {
      stream.resume();
      stream.on("end", next);
      return;
    }
    if (header.size !== undefined && header.size > maxBytes) {
      error = new Error(`file is larger than ${maxBytes} bytes`);
      stream.resume();
      stream.on("end", next);
      return;
    }
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => {
      chunks.push(c as Buffer);
    });
    stream.on("end", () => {
      found = {
        name: header.name,
        type: header.type ?? "file",
        mode: header.mode ?? 0,
        size: header.size ?? 0,
        linkname: header.linkname,
        content: Buffer.concat(chunks),
      };
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    extract.on("finish", resolve);
    extract.on("error", reject);
    input.on("error", reject);
    input.pipe(extract);
  });
  if (error) throw error;
  return found;
}

/** Re-packs an archive of the directory `dir` without the entries `drop` rejects and reports the
 *  mode of its root entry. Relative symbolic links that leave `dir` (e.g. /etc/os-release ->
 *  ../usr/lib/os-release) become absolute: the engine refuses to extract them otherwise. */
export async function filterTar(input: Readable, dir: string, drop: (name: string) => boolean): Promise<{ tar: Buffer; rootMode?: number; entries: number }> {
  const extract = tar.extract();
  const pack = tar.pack();
  let rootMode: number | undefined;
  let entries = 0;
  const out = streamToBuffer(pack as unknown as Readable);
  extract.on("entry", (header, stream, next) => {
    const name = header.name.replace(/^\.\//, "").replace(/\/$/, "");
    if (name === "" || name === ".") rootMode = header.mode;
    if (drop(name)) {
      stream.resume();
      stream.on("end", next);
      return;
    }
    entries++;
    if (header.type === "symlink" && header.linkname && !header.linkname.startsWith("/")) {
      const target = posix.resolve(dir, posix.dirname(name), header.linkname);
      if (target !== dir && !target.startsWith(dir + "/")) header.linkname = target;
    }
    const entry = pack.entry(header, (err) => (err ? extract.destroy(err) : next()));
    stream.pipe(entry);
  });
  await new Promise<void>((resolve, reject) => {
    extract.on("finish", resolve);
    extract.on("error", reject);
    input.on("error", reject);
    input.pipe(extract);
  });
  pack.finalize();
  return { tar: await out, rootMode, entries };
}

export function streamToBuffer(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}
