// Costed hints, the debrief after solving, recordings and their replay (docs/api.md,
// "Hints, debrief and recordings"): transport only, the rules are server/core/hints.ts,
// server/core/debrief.ts and server/core/recordings/access.ts. Registered before the catalogue's
// /challenges/:id and the profiles' /users/:username, which match fewer segments anyway.
import { z } from "zod";
import type { Debriefs } from "../core/debrief.ts";
import type { Hints } from "../core/hints.ts";
import type { RecordingAccess } from "../core/recordings/access.ts";
import { type BaseCtx, parse, type Router } from "./router.ts";
import { challengeIdParam, queryText, wholeNumber } from "../../shared/contract/inputs.ts";

export const hintRevealBody = z.strictObject({
  number: z.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100"),
});
export const publishBody = z.strictObject({ published: z.boolean({ error: "must be true or false" }) });
export const recordingIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "not a recording id");
const usernameParam = z.string().min(1).max(64);
export const adminRecordingsQuery = z.object({
  username: queryText(100),
  limit: wholeNumber(1, 200),
});

export interface DebriefRoutesDeps {
  hints: Hints;
  debriefs: Debriefs;
  recordings: RecordingAccess;
  userId(c: BaseCtx): Promise<string>;
  /** The caller when an admin (403 otherwise; 401 without credentials). */
  adminId(c: BaseCtx): Promise<string>;
}

/** An asciicast v2 file: never cached by a shared cache, never sniffed as something else. */
const cast = (text: string) =>
  new Response(text, {
    headers: { "content-type": "application/x-asciicast; charset=utf-8", "cache-control": "private, no-store", "x-content-type-options": "nosniff" },
  });

export function debriefRoutes(r: Router, { hints, debriefs, recordings, userId, adminId }: DebriefRoutesDeps) {
  const challenge = (c: { params: Record<string, string> }) => parse(challengeIdParam, c.params.id);
  const recording = (c: { params: Record<string, string> }) => parse(recordingIdParam, c.params.id);
  const optionalUser = async (c: BaseCtx) => (c.request.headers.has("authorization") ? userId(c) : null);
  const tags: [string] = ["Hints and debrief"];

  r.get(
    "/challenges/:id/hints",
    {
      summary: "The challenge's hints: count, costs, and the texts of those revealed",
      tags,
      access: "user",
      params: { id: challengeIdParam },
      errors: { 404: "No such challenge" },
    },
    async (c) => hints.state(await userId(c), challenge(c)),
  );
  r.post(
    "/challenges/:id/hints/reveal",
    {
      summary: "Reveal the next hint (its cost is deducted only if and when the challenge is solved)",
      tags,
      access: "user",
      params: { id: challengeIdParam },
      body: hintRevealBody,
      errors: { 404: "No such challenge", 409: "Not the next hint, or none left" },
    },
    async (c) => {
      const user = await userId(c);
      return hints.reveal(user, challenge(c), (await c.body(hintRevealBody)).number);
    },
  );
  r.get(
    "/challenges/:id/debrief",
    {
      summary: "After solving: the root cause, the reference steps, the points and the commands typed",
      tags,
      access: "user",
      params: { id: challengeIdParam },
      errors: { 403: "Not solved yet", 404: "No such challenge" },
    },
    async (c) => debriefs.get(await userId(c), challenge(c)),
  );
  r.get(
    "/challenges/:id/recordings",
    { summary: "The caller's recordings of a challenge's shells", tags, access: "user", params: { id: challengeIdParam } },
    async (c) => ({ recordings: await recordings.mine(await userId(c), challenge(c)) }),
  );
  r.get("/users/me/recordings", { summary: "Every recording of the caller, newest first", tags, access: "user" }, async (c) => ({
    recordings: await recordings.mineAll(await userId(c)),
  }));
  r.get(
    "/recordings/:id",
    { summary: "One of the caller's recordings", tags, access: "user", params: { id: recordingIdParam }, errors: { 404: "No such recording of the caller's" } },
    async (c) => recordings.get(await userId(c), recording(c)),
  );
  r.get(
    "/recordings/:id/cast",
    {
      summary: "A recording's asciicast v2 file: its owner's, or anyone's once published",
      tags,
      access: "optional-user",
      params: { id: recordingIdParam },
      contentType: "application/x-asciicast",
      errors: { 404: "No such recording, or not the caller's and not published" },
    },
    async (c) => cast(await recordings.content(await optionalUser(c), recording(c))),
  );
  r.put(
    "/recordings/:id/published",
    {
      summary: "Publish a solved session on the profile, or keep it private",
      tags,
      access: "user",
      params: { id: recordingIdParam },
      body: publishBody,
      errors: { 404: "No such recording of the caller's", 409: "The challenge is not solved" },
    },
    async (c) => {
      const user = await userId(c);
      return recordings.setPublished(user, recording(c), (await c.body(publishBody)).published);
    },
  );
  r.get(
    "/users/:username/solutions",
    {
      summary: "A user's published solutions (sessions they chose to show)",
      tags,
      access: "public",
      params: { username: usernameParam },
      errors: { 404: "No such user" },
    },
    async (c) => ({ solutions: await recordings.published(parse(usernameParam, c.params.username)) }),
  );
  r.get(
    "/admin/recordings",
    { summary: "Recent recordings, optionally of one user (abuse review)", tags: ["Admin"], access: "admin", query: adminRecordingsQuery },
    async (c) => {
      await adminId(c);
      return { recordings: await recordings.adminList(c.query(adminRecordingsQuery)) };
    },
  );
  r.get(
    "/admin/recordings/:id/cast",
    {
      summary: "Open any recording (audited)",
      tags: ["Admin"],
      access: "admin",
      params: { id: recordingIdParam },
      contentType: "application/x-asciicast",
      errors: { 404: "No such recording" },
    },
    async (c) => cast(await recordings.adminContent(await adminId(c), recording(c))),
  );
}
