// Files through the engine (getArchive/putArchive), never by running a binary inside the
// container: grading reads what the player left without trusting the player's tools. This works
// because writable directories are volumes (writable.ts; docs/decisions/003-runtime-docker.md,
// "Disk").
import { posix } from "node:path";
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { firstEntry, packFile } from "#server/runtime/tar.ts";
import { RuntimeError, type FileContent } from "#server/runtime/types.ts";
import { statusOf } from "./engine.ts";

export function createFiles(docker: Docker) {
  async function readFile(containerId: string, path: string, opts: { maxBytes?: number } = {}): Promise<FileContent> {
    const maxBytes = opts.maxBytes ?? 1024 * 1024;
    let p = posix.normalize(path);
    for (let hop = 0; hop < 8; hop++) {
      let stream: Readable;
      try {
        stream = (await docker.getContainer(containerId).getArchive({ path: p })) as unknown as Readable;
      } catch (e) {
        if (statusOf(e) === 404) throw new RuntimeError(`${path}: no such file in container`, "not_found");
        throw e;
      }
      const entry = await firstEntry(stream, maxBytes).catch((e: Error) => {
        throw new RuntimeError(`${path}: ${e.message}`, "limit");
      });
      if (!entry) throw new RuntimeError(`${path}: no such file in container`, "not_found");
      if (entry.type === "symlink" && entry.linkname) {
        p = posix.resolve(posix.dirname(p), entry.linkname);
        continue;
      }
      if (entry.type !== "file") throw new RuntimeError(`${path} is not a regular file (${entry.type})`, "invalid");
      return { content: entry.content, mode: entry.mode, size: entry.size };
    }
    throw new RuntimeError(`${path}: too many levels of symbolic links`, "invalid");
  }

  async function writeFile(containerId: string, path: string, content: Buffer | string, opts: { mode?: number; uid?: number; gid?: number } = {}) {
    const p = posix.normalize(path);
    if (!p.startsWith("/") || p.endsWith("/")) throw new RuntimeError(`not an absolute file path: ${path}`, "invalid");
    const archive = await packFile(posix.basename(p), Buffer.isBuffer(content) ? content : Buffer.from(content), opts);
    try {
      await docker.getContainer(containerId).putArchive(archive, { path: posix.dirname(p) });
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) throw new RuntimeError(`${posix.dirname(p)}: no such directory in container`, "not_found");
      if (status === 403 || /read-only/i.test((e as Error).message)) throw new RuntimeError(`${p}: not in a writable directory`, "invalid");
      throw e;
    }
  }

  return { readFile, writeFile };
}
