// Recordings of shells, the read side's foundation and the clean-up: each shell of a deployment
// (ssh or the browser terminal) is one asciicast v2 file under RECORDINGS_DIR/<user id>/ (written
// by recorder.ts; RECORDINGS_DIR is DATA_DIR/recordings unless configured, ideally a volume of
// its own, apart from the database) and one `recordings` row saying whose it is. Replay,
// compare, publish and the admin console build on `get`, the two lists and `open`; deleting an
// account calls `deleteUserRecordings`; the quota (quota.ts) calls `remove`; the worker calls
// `sweep` for the retention the privacy page states (90 days; a published recording stays until
// it is unpublished) and to close the rows of shells whose process died before it could.
import { createReadStream, type ReadStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { Selectable } from "kysely";
import type { Db } from "#server/db/index.ts";
import type { RecordingsTable } from "#server/db/schema.ts";

export type RecordingRow = Selectable<RecordingsTable>;

/** How long a private recording is kept (the privacy page says 90 days). */
export const RETENTION_SECONDS = 90 * 24 * 3600;

/** The folder (relative to RECORDINGS_DIR) holding one user's recordings: removing it removes
 *  them all, whether or not the rows are still there (a deleted user's rows go by ON DELETE
 *  CASCADE). */
export function userFolder(userId: string): string {
  // Ids are ours (UUIDs), never a client's; still, nothing may climb out of the folder.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId)) throw new Error(`recordings: unexpected user id ${JSON.stringify(userId)}`);
  return userId;
}

export interface RecordingStoreDeps {
  db: Db;
  /** RECORDINGS_DIR: every row's `path` is relative to it (migration 0016). */
  root: string;
  /** A shell never outlives its deployment: a row still open this long after its start belongs
   *  to a process that died, and `sweep` closes it. */
  staleOpenSeconds?: number;
}

export function createRecordingStore({ db, root, staleOpenSeconds = 6 * 3600 }: RecordingStoreDeps) {
  const base = resolve(root);
  /** The absolute path of a row's file, refusing any path that would leave RECORDINGS_DIR. */
  const fileOf = (row: Pick<RecordingRow, "path">) => {
    const full = resolve(base, row.path);
    if (!full.startsWith(base + sep)) throw new Error(`recordings: path outside the folder: ${row.path}`);
    return full;
  };

  /** Removes recordings: each file, then its row. */
  async function remove(rows: Pick<RecordingRow, "id" | "path">[]): Promise<void> {
    for (const row of rows) {
      await rm(fileOf(row), { force: true }).catch(() => {});
      await db.deleteFrom("recordings").where("id", "=", row.id).execute();
    }
  }

  return {
    root: base,
    fileOf,
    remove,
    /** The shells of one deployment, oldest first (at most `limit`). */
    listByDeployment(deploymentId: string, limit = 1000): Promise<RecordingRow[]> {
      return db
        .selectFrom("recordings")
        .selectAll()
        .where("deployment_id", "=", deploymentId)
        .orderBy("started_at", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },
    /** One user's shells in one challenge (every deployment of it), oldest first. */
    listByUserChallenge(userId: string, challengeId: string): Promise<RecordingRow[]> {
      return db
        .selectFrom("recordings")
        .selectAll()
        .where("user_id", "=", userId)
        .where("challenge_id", "=", challengeId)
        .orderBy("started_at", "asc")
        .orderBy("id", "asc")
        .execute();
    },
    async get(id: string): Promise<RecordingRow | null> {
      return (await db.selectFrom("recordings").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
    },
    /** The recording's asciicast text (at most the size bound, 1 MiB), or null when there is no
     *  such recording or its file is gone. Owner checks are the caller's. */
    async open(id: string): Promise<string | null> {
      const row = await this.get(id);
      if (!row) return null;
      try {
        return await readFile(fileOf(row), "utf8");
      } catch {
        return null;
      }
    },
    /** The same as a stream (for sending it on without holding it). */
    async openStream(id: string): Promise<ReadStream | null> {
      const row = await this.get(id);
      return row ? createReadStream(fileOf(row)) : null;
    },
    /** Removes every recording of the user: the files first, then the rows. */
    deleteUserRecordings: (userId: string) => deleteUserRecordings({ db, root: base }, userId),
    /**
     * The worker's round: removes private recordings started more than RETENTION_SECONDS ago
     * (published ones stay while published), and closes rows left open by a process that died
     * (their size read from the file), so the quota can count and free them. Returns how many
     * recordings were removed.
     */
    async sweep(now = Date.now()): Promise<number> {
      const t = Math.floor(now / 1000);
      const due = await db
        .selectFrom("recordings")
        .select(["id", "path"])
        .where("started_at", "<", t - RETENTION_SECONDS)
        .where("published", "=", 0)
        .limit(500)
        .execute();
      await remove(due);
      const stale = await db
        .selectFrom("recordings")
        .select(["id", "path"])
        .where("commands", "is", null)
        .where("ended_at", "is", null)
        .where("started_at", "<", t - staleOpenSeconds)
        .limit(500)
        .execute();
      for (const row of stale) {
        const size = await stat(fileOf(row)).then(
          (s) => s.size,
          () => 0,
        );
        await db.updateTable("recordings").set({ ended_at: t, bytes: size }).where("id", "=", row.id).where("ended_at", "is", null).execute();
      }
      return due.length;
    },
  };
}
export type RecordingStore = ReturnType<typeof createRecordingStore>;

/** Deletes a user's recordings: their folder (every file, also of rows already gone), then the
 *  rows. Safe to call before or after the user's row is deleted. */
export async function deleteUserRecordings({ db, root }: { db: Db; root: string }, userId: string): Promise<void> {
  await rm(join(resolve(root), userFolder(userId)), { recursive: true, force: true });
  await db.deleteFrom("recordings").where("user_id", "=", userId).execute();
}
