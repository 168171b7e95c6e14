// Disk: a read-only root plus one size-bounded tmpfs volume per writable directory, filled with
// the image's content after start (docs/decisions/003-runtime-docker.md, "Disk"). Docker's own
// copy-up does not work for tmpfs-backed volumes (it mounts the volume, copies, and unmounts:
// the tmpfs and the copy are gone), so each directory is read once per image from a stopped
// helper container and written into every new container.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { LABEL, maxWritableBytes } from "#server/runtime/policy.ts";
import { filterTar } from "#server/runtime/tar.ts";
import { RuntimeError, type WritableDir } from "#server/runtime/types.ts";
import { statusOf } from "./engine.ts";

/** Files Docker bind-mounts into /etc itself; copying them in would fail (and is not wanted). */
const ENGINE_MANAGED = new Set(["hostname", "hosts", "resolv.conf"]);

/** An image's content below one path, as an archive for putArchive (null: nothing to copy), and
 *  the directory's own mode. */
export interface Skeleton {
  tar: Buffer | null;
  mode?: number;
}

export function checkWritable(dirs: WritableDir[]): WritableDir[] {
  let total = 0;
  const seen = new Set<string>();
  for (const d of dirs) {
    const p = posix.normalize(d.path);
    if (!p.startsWith("/") || p === "/" || /^\/(proc|sys|dev)(\/|$)/.test(p) || p !== d.path.replace(/\/+$/, "")) {
      throw new RuntimeError(`writable directory not allowed: ${d.path}`, "invalid");
    }
    if (seen.has(p)) throw new RuntimeError(`writable directory listed twice: ${p}`, "invalid");
    seen.add(p);
    if (!(d.sizeBytes > 0)) throw new RuntimeError(`writable directory ${p} needs a size`, "invalid");
    total += d.sizeBytes;
  }
  if (total > maxWritableBytes) throw new RuntimeError(`writable directories add up to ${total} bytes, more than ${maxWritableBytes}`, "invalid");
  return dirs;
}

/** The mounts of a container's writable directories: volumes (not HostConfig.Tmpfs), because
 *  getArchive/putArchive see volumes but not tmpfs mounts that exist only in the container's mount
 *  namespace; that is what lets the platform read and write files through the engine. */
export function writableMounts(writable: WritableDir[], fills: (Skeleton | null)[], labels: Record<string, string>) {
  return writable.map((w, i) => ({
    Type: "volume" as const,
    Source: "",
    Target: w.path,
    VolumeOptions: {
      NoCopy: true,
      Labels: labels,
      DriverConfig: {
        Name: "local",
        Options: { type: "tmpfs", device: "tmpfs", o: `size=${w.sizeBytes},mode=${(w.mode ?? fills[i]?.mode ?? 0o755).toString(8)},nodev,nosuid` },
      },
    },
  }));
}

/** Bump when what a skeleton holds changes (filterTar's rules, Skeleton's fields): older files
 *  on disk are then ignored. */
const DISK_FORMAT = "v1";

/**
 * Skeletons on disk, so a restart does not pay again for reading them from the engine (about a
 * second per image on 2 cores: a helper container and one archive per directory). Keyed by the
 * image's id, a digest of its content: a rebuilt image has another id, so nothing goes stale.
 * Written to a temporary name and renamed, so a crash never leaves half a file behind.
 */
function createDiskCache(dir: string | undefined) {
  const fileOf = (imageId: string, path: string) =>
    join(dir!, "skeletons", DISK_FORMAT, imageId.replace(/^sha256:/, ""), createHash("sha256").update(path).digest("hex").slice(0, 24));
  return {
    async read(imageId: string, path: string): Promise<Skeleton | null> {
      if (!dir) return null;
      try {
        const meta = JSON.parse(await readFile(`${fileOf(imageId, path)}.json`, "utf8")) as { path: string; mode?: number; empty: boolean };
        if (meta.path !== path) return null;
        return { tar: meta.empty ? null : await readFile(`${fileOf(imageId, path)}.tar`), mode: meta.mode };
      } catch {
        return null;
      }
    },
    async write(imageId: string, path: string, skeleton: Skeleton) {
      if (!dir) return;
      const file = fileOf(imageId, path);
      const tmp = `.${process.pid}.${randomBytes(4).toString("hex")}`;
      try {
        await mkdir(dirname(file), { recursive: true });
        if (skeleton.tar) {
          await writeFile(file + ".tar" + tmp, skeleton.tar);
          await rename(file + ".tar" + tmp, file + ".tar");
        }
        await writeFile(file + ".json" + tmp, JSON.stringify({ path, mode: skeleton.mode, empty: !skeleton.tar }));
        await rename(file + ".json" + tmp, file + ".json");
      } catch {
        // A cache: failing to keep it only costs the next process a second.
      }
    },
  };
}

/** The image's content below each path as archives for putArchive, cached per image in memory
 *  and, with `cacheDir`, on disk across restarts. */
export function createSkeletons(docker: Docker, cacheDir?: string) {
  const skeletonCache = new Map<string, Promise<Skeleton>>();
  const disk = createDiskCache(cacheDir);

  async function skeletons(imageId: string, paths: string[]): Promise<Skeleton[]> {
    const notInMemory = paths.filter((p) => !skeletonCache.has(`${imageId}:${p}`));
    const fromDisk = await Promise.all(notInMemory.map((p) => disk.read(imageId, p)));
    notInMemory.forEach((p, i) => {
      if (fromDisk[i] && !skeletonCache.has(`${imageId}:${p}`)) skeletonCache.set(`${imageId}:${p}`, Promise.resolve(fromDisk[i]!));
    });
    const missing = paths.filter((p) => !skeletonCache.has(`${imageId}:${p}`));
    if (missing.length) {
      const batch = (async () => {
        const helper = await docker.createContainer({
          Image: imageId,
          Cmd: ["true"],
          Entrypoint: [],
          NetworkDisabled: true,
          Labels: { [LABEL.managed]: "1", [LABEL.role]: "skeleton" },
          HostConfig: { NetworkMode: "none", LogConfig: { Type: "none", Config: {} } },
        });
        try {
          return await Promise.all(
            missing.map(async (path): Promise<Skeleton> => {
              try {
                const stream = (await helper.getArchive({ path: `${path}/.` })) as unknown as Readable;
                const { tar, rootMode, entries } = await filterTar(stream, path, (n) => path === "/etc" && ENGINE_MANAGED.has(n));
                return { tar: entries > 1 ? tar : null, mode: rootMode !== undefined ? rootMode & 0o7777 : undefined };
              } catch (e) {
                if (statusOf(e) === 404) return { tar: null };
                throw e;
              }
            }),
          );
        } finally {
          await helper.remove({ force: true }).catch(() => {});
        }
      })();
      missing.forEach((p, i) => {
        const entry = batch.then((all) => all[i]!);
        entry.then((skeleton) => disk.write(imageId, p, skeleton)).catch(() => skeletonCache.delete(`${imageId}:${p}`));
        skeletonCache.set(`${imageId}:${p}`, entry);
      });
    }
    return Promise.all(paths.map((p) => skeletonCache.get(`${imageId}:${p}`)!));
  }

  /** Makes sure the skeletons exist (boot): on disk when there is a cache directory, without
   *  holding them in memory for an image no one may start; else in memory. */
  async function ensure(imageId: string, paths: string[]) {
    const onDisk = await Promise.all(paths.map((p) => disk.read(imageId, p).then(Boolean)));
    if (cacheDir && onDisk.every(Boolean)) return;
    const inUse = new Set(paths.filter((p) => skeletonCache.has(`${imageId}:${p}`)));
    const made = await skeletons(imageId, paths);
    if (!cacheDir) return;
    await Promise.all(paths.map((p, i) => disk.write(imageId, p, made[i]!)));
    for (const p of paths) if (!inUse.has(p)) skeletonCache.delete(`${imageId}:${p}`);
  }

  return Object.assign(skeletons, { ensure });
}
