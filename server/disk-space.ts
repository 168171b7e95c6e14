// The free-space floor (docs/decisions/016-per-user-bounds.md): below it, what players make the
// platform write (recordings, the mail outbox) stops being written, so the database, the host key
// and the secrets keep the room they need to work. The shell or the request that would have
// written goes on; only the copy on disk is given up.
//
// Reading the file system's free space costs a system call, so the answer is kept for a second:
// `check()` waits for a fresh one when the kept one is older (before a file is created), `low()`
// answers at once from the kept one and refreshes it in the background (on every write).
import { mkdirSync } from "node:fs";
import { statfs } from "node:fs/promises";

/** Free bytes for an unprivileged writer on the file system holding `dir`. */
export type FreeBytes = (dir: string) => Promise<number>;

const freeBytes: FreeBytes = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};

export interface DiskSpace {
  /** Whether the free space is at or above the floor, read now unless read within a second. */
  check(): Promise<boolean>;
  /** The last reading's answer, at once (a stale reading is refreshed in the background). */
  low(): boolean;
  /** The last free space read (null before the first reading or when it cannot be read). */
  lastFree(): number | null;
}

export function createDiskSpace({
  dir,
  floorBytes,
  free = freeBytes,
  maxAgeMs = 1000,
}: {
  dir: string;
  floorBytes: number;
  free?: FreeBytes;
  maxAgeMs?: number;
}): DiskSpace {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let reading: number | null = null;
  let readAt = 0;
  let pending: Promise<void> | null = null;

  const refresh = () =>
    (pending ??= free(dir)
      .then(
        (n) => {
          reading = n;
        },
        // Unreadable (an exotic file system): the floor cannot be told, so it does not stop
        // anything; the quotas still bound every user.
        () => {
          reading = null;
        },
      )
      .finally(() => {
        readAt = Date.now();
        pending = null;
      }));

  const above = () => reading === null || reading >= floorBytes;
  return {
    async check() {
      // A reading under way may have started before the latest change: wait for it, then read
      // again if it is already too old.
      if (pending) await pending;
      if (Date.now() - readAt >= maxAgeMs) await refresh();
      return above();
    },
    low() {
      if (Date.now() - readAt >= maxAgeMs) void refresh();
      return !above();
    },
    lastFree: () => reading,
  };
}
