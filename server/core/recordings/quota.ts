// What one player may keep in recordings (docs/decisions/016-per-user-bounds.md):
// per user and per deployment, a number of files and of bytes. A shell being recorded counts as
// a full file (its final size is unknown until it ends). When a new shell would pass a bound,
// the oldest private recordings that have ended make room, the deployment's first (so one
// deployment's flood does not take the player's other challenges with it), then the user's;
// published ones are never removed. When no such recording is left to remove, the new shell is
// not recorded (the shell itself runs all the same).
import { sql } from "kysely";
import type { Db } from "#server/db/index.ts";
import type { RecordingStore } from "./store.ts";

export interface RecordingQuota {
  files: number;
  bytes: number;
}

export interface RecordingLimits {
  perUser: RecordingQuota;
  perDeployment: RecordingQuota;
  /** Recorded shells a user may start per minute (ssh, commands and the browser terminal). */
  perMinute: number;
}

export function createRecordingQuota({ db, store, limits, fileBytes }: { db: Db; store: RecordingStore; limits: RecordingLimits; fileBytes: number }) {
  type Scope = { column: "user_id" | "deployment_id"; value: string; quota: RecordingQuota };

  async function usage({ column, value }: Scope) {
    const row = await db
      .selectFrom("recordings")
      .select([db.fn.countAll<number>().as("files"), sql<number>`coalesce(sum(case when ended_at is null then ${fileBytes} else bytes end), 0)`.as("bytes")])
      .where(column, "=", value)
      .executeTakeFirstOrThrow();
    return { files: Number(row.files), bytes: Number(row.bytes) };
  }

  /** Makes room in one scope for a new file; false when it cannot. */
  async function makeRoom(scope: Scope): Promise<boolean> {
    const used = await usage(scope);
    let files = used.files + 1 - scope.quota.files;
    let bytes = used.bytes + fileBytes - scope.quota.bytes;
    if (files <= 0 && bytes <= 0) return true;
    const oldest = await db
      .selectFrom("recordings")
      .select(["id", "path", "bytes"])
      .where(scope.column, "=", scope.value)
      .where("published", "=", 0)
      .where("ended_at", "is not", null)
      .orderBy("started_at", "asc")
      .orderBy("id", "asc")
      .limit(Math.max(files, 0) + 64)
      .execute();
    const victims: typeof oldest = [];
    for (const r of oldest) {
      if (files <= 0 && bytes <= 0) break;
      victims.push(r);
      files -= 1;
      bytes -= Number(r.bytes);
    }
    await store.remove(victims);
    // More to free than one batch held (a quota lowered by the operator): the next shell goes on.
    return files <= 0 && bytes <= 0;
  }

  return {
    limits,
    /** Room for one more recording of this user's deployment: true when there is (after removing
     *  what had to go), false when this shell is not to be recorded. */
    async admit(userId: string, deploymentId: string): Promise<boolean> {
      if (!(await makeRoom({ column: "deployment_id", value: deploymentId, quota: limits.perDeployment }))) return false;
      return makeRoom({ column: "user_id", value: userId, quota: limits.perUser });
    },
  };
}
export type RecordingQuotaService = ReturnType<typeof createRecordingQuota>;
