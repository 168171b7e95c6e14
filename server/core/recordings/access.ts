// Who may read a recording, on top of the store (store.ts): its owner; anyone once the
// owner published it (only a solved challenge's session can be); an admin from the console, each
// opening written to the audit log. To everyone else a recording does not exist: 404, never 403,
// so ids cannot be probed.
import type { PublishedSolution, RecordingView } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { isDisabled } from "#server/core/admin/disabled.ts";
import type { Audit } from "#server/core/audit.ts";
import { conflict, notFound } from "#server/core/errors.ts";
import type { RecordingRow, RecordingStore } from "./store.ts";

export const RECORDING_NOT_FOUND = "Recording not found";
export const PUBLISH_NEEDS_SOLVE = "Only the session of a challenge you solved can be published.";

export const recordingView = (r: RecordingRow): RecordingView => ({
  id: r.id,
  challenge_id: r.challenge_id,
  deployment_id: r.deployment_id,
  source: r.source,
  started_at: Number(r.started_at),
  ended_at: r.ended_at === null ? null : Number(r.ended_at),
  bytes: Number(r.bytes),
  truncated: Number(r.truncated) === 1,
  published: Number(r.published) === 1,
});

export interface RecordingAccessDeps {
  db: Db;
  store: RecordingStore;
  audit?: Pick<Audit, "record">;
  titleOf(challengeId: string): string | undefined;
}

export function createRecordingAccess({ db, store, audit, titleOf }: RecordingAccessDeps) {
  async function owned(userId: string, id: string): Promise<RecordingRow> {
    const row = await store.get(id);
    if (!row || row.user_id !== userId) throw notFound(RECORDING_NOT_FOUND);
    return row;
  }

  async function text(id: string): Promise<string> {
    const cast = await store.open(id);
    if (cast === null) throw notFound(RECORDING_NOT_FOUND);
    return cast;
  }

  const solved = async (userId: string, challengeId: string) =>
    !!(await db.selectFrom("solves").select("user_id").where("user_id", "=", userId).where("challenge_id", "=", challengeId).executeTakeFirst());

  return {
    /** The caller's own recordings of one challenge, oldest first. */
    async mine(userId: string, challengeId: string): Promise<RecordingView[]> {
      return (await store.listByUserChallenge(userId, challengeId)).map(recordingView);
    },

    /** Every recording of the caller, newest first (the profile's Solutions tab). */
    async mineAll(userId: string): Promise<RecordingView[]> {
      const rows = await db.selectFrom("recordings").selectAll().where("user_id", "=", userId).orderBy("started_at", "desc").limit(500).execute();
      return rows.map(recordingView);
    },

    async get(userId: string, id: string): Promise<RecordingView> {
      return recordingView(await owned(userId, id));
    },

    /** The asciicast text for the owner, or for anyone when it is published. */
    async content(userId: string | null, id: string): Promise<string> {
      const row = await store.get(id);
      if (!row || (row.user_id !== userId && (Number(row.published) !== 1 || (await isDisabled(db, row.user_id))))) throw notFound(RECORDING_NOT_FOUND);
      return text(id);
    },

    /** Publishes (or takes back) one of the owner's recordings of a solved challenge. */
    async setPublished(userId: string, id: string, published: boolean): Promise<RecordingView> {
      const row = await owned(userId, id);
      if (published && !(await solved(userId, row.challenge_id))) throw conflict(PUBLISH_NEEDS_SOLVE);
      await db
        .updateTable("recordings")
        .set({ published: published ? 1 : 0 })
        .where("id", "=", id)
        .execute();
      await audit?.record({
        action: "recording.publish",
        actorId: userId,
        target: { type: "recording", id },
        detail: { challenge_id: row.challenge_id, published },
      });
      return recordingView({ ...row, published: published ? 1 : 0 });
    },

    /** A user's published solutions, newest solve first (a public profile's Solutions tab). */
    async published(username: string): Promise<PublishedSolution[]> {
      const user = await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
      if (!user || (await isDisabled(db, user.id))) throw notFound("User not found");
      const rows = await db
        .selectFrom("recordings as r")
        .innerJoin("solves as s", (j) => j.onRef("s.user_id", "=", "r.user_id").onRef("s.challenge_id", "=", "r.challenge_id"))
        .select(["r.id", "r.challenge_id", "r.started_at", "s.solved_at"])
        .where("r.user_id", "=", user.id)
        .where("r.published", "=", 1)
        .orderBy("s.solved_at", "desc")
        .orderBy("r.started_at", "asc")
        .limit(200)
        .execute();
      return rows.map((r) => ({
        recording_id: r.id,
        challenge_id: r.challenge_id,
        title: titleOf(r.challenge_id) ?? r.challenge_id,
        started_at: Number(r.started_at),
        solved_at: Number(r.solved_at),
      }));
    },

    /** The admin console: recent recordings, optionally of one user (by name), newest first. */
    async adminList(q: { username?: string; limit?: number }): Promise<(RecordingView & { username: string })[]> {
      let query = db
        .selectFrom("recordings as r")
        .innerJoin("users as u", "u.id", "r.user_id")
        .selectAll("r")
        .select("u.username")
        .orderBy("r.started_at", "desc")
        .limit(q.limit ?? 50);
      if (q.username) query = query.where("u.username", "=", q.username);
      return (await query.execute()).map((r) => ({ ...recordingView(r), username: r.username }));
    },

    /** An admin opens any recording (abuse review); every opening is audited. */
    async adminContent(actorId: string, id: string): Promise<string> {
      const row = await store.get(id);
      if (!row) throw notFound(RECORDING_NOT_FOUND);
      const cast = await text(id);
      await audit?.record({
        action: "admin.recording_view",
        actorId,
        target: { type: "recording", id },
        detail: { user_id: row.user_id, challenge_id: row.challenge_id },
      });
      return cast;
    },
  };
}
export type RecordingAccess = ReturnType<typeof createRecordingAccess>;
