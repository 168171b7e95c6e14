// Recordings of shells, the read side's foundation and the clean-up: each shell of a deployment
// (ssh or the browser terminal) is one asciicast v2 file under DATA_DIR/recordings/<user id>/
// (written by recorder.ts) and one `recordings` row saying whose it is. Replay, compare, publish
// and the admin console build on `get`, the two lists and `open`; deleting an account calls
// `deleteUserRecordings`; the worker calls `sweep` for the retention the privacy page states
// (90 days; a published recording stays until it is unpublished).
import { createReadStream, type ReadStream } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { Selectable } from "kysely";
import type { Db } from "../../db/index.ts";
import type { RecordingsTable } from "../../db/schema.ts";

export type RecordingRow = Selectable<RecordingsTable>;

/** How long a private recording is kept (the privacy page says 90 days). */
export const RETENTION_SECONDS = 90 * 24 * 3600;

/** The folder (relative to DATA_DIR) holding one user's recordings: removing it removes them all,
 *  whether or not the rows are still there (a deleted user's rows go by ON DELETE CASCADE). */
export function userFolder(userId: string): string {
  // Ids are ours (UUIDs), never a client's; still, nothing may climb out of the folder.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId)) throw new Error(`recordings: unexpected user id ${JSON.stringify(userId)}`);
  return join("recordings", userId);
}

export interface RecordingStoreDeps {
  db: Db;
  dataDir: string;
}

export function createRecordingStore({ db, dataDir }: RecordingStoreDeps) {
  const base = resolve(dataDir);
  /** The absolute path of a row's file, refusing any path that would leave DATA_DIR/recordings. */
  const fileOf = (row: Pick<RecordingRow, "path">) => {
    const full = resolve(base, row.path);
    if (!full.startsWith(join(base, "recordings") + sep)) throw new Error(`recordings: path outside the folder: ${row.path}`);
    return full;
  };

  return {
    /** The shells of one deployment, oldest first. */
    listByDeployment(deploymentId: string): Promise<RecordingRow[]> {
      return db.selectFrom("recordings").selectAll().where("deployment_id", "=", deploymentId).orderBy("started_at", "asc").orderBy("id", "asc").execute();
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
    deleteUserRecordings: (userId: string) => deleteUserRecordings({ db, dataDir }, userId),
    /**
     * Retention: removes private recordings started more than RETENTION_SECONDS ago (published
     * ones stay while published). Returns how many went. Runs in the worker.
     */
    async sweep(now = Date.now()): Promise<number> {
      const cutoff = Math.floor(now / 1000) - RETENTION_SECONDS;
      const due = await db.selectFrom("recordings").select(["id", "path"]).where("started_at", "<", cutoff).where("published", "=", 0).limit(500).execute();
      for (const row of due) {
        await rm(fileOf(row), { force: true }).catch(() => {});
        await db.deleteFrom("recordings").where("id", "=", row.id).execute();
      }
      return due.length;
    },
  };
}
export type RecordingStore = ReturnType<typeof createRecordingStore>;

/** Deletes a user's recordings: their folder (every file, also of rows already gone), then the
 *  rows. Safe to call before or after the user's row is deleted. */
export async function deleteUserRecordings({ db, dataDir }: RecordingStoreDeps, userId: string): Promise<void> {
  await rm(join(resolve(dataDir), userFolder(userId)), { recursive: true, force: true });
  await db.deleteFrom("recordings").where("user_id", "=", userId).execute();
}
