// The API's JSON shapes for costed hints, the debrief after solving, recordings and their
// replay (docs/api.md, "Hints, debrief and recordings"), and their operations.
import { z } from "zod";
import { challengeIdParam, queryText, wholeNumber } from "./inputs.ts";
import { defineOperations } from "./operation.ts";

/** One hint as the player may see it: the text only once revealed. */
export const hintViewSchema = z.object({
  /** 1-based, the order in which hints are revealed. */
  number: z.number(),
  /** Points deducted from the challenge's if and when it is solved. */
  cost: z.number(),
  revealed: z.boolean(),
  /** null until revealed: hint texts never leave the server before. */
  text: z.string().nullable(),
});
export type HintView = z.infer<typeof hintViewSchema>;

/** GET /challenges/{id}/hints and the answer of POST .../hints/reveal. */
export const hintsStateSchema = z.object({
  challenge_id: z.string(),
  count: z.number(),
  revealed: z.number(),
  hints: z.array(hintViewSchema),
  /** Sum of the revealed hints' costs (at most the challenge's points): what a solve will deduct. */
  pending_cost: z.number(),
  /** Solved already: the costs were settled at the solve; later reveals cost nothing. */
  solved: z.boolean(),
});
export type HintsState = z.infer<typeof hintsStateSchema>;

/** POST /challenges/{id}/hints/reveal: the hint the player saw the offer for (1-based), so a
 *  double post reveals nothing twice and nothing out of order. */
export const hintRevealBody = z.strictObject({
  number: z.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100"),
});
export type HintRevealBody = z.input<typeof hintRevealBody>;

export const RECORDING_SOURCES = ["ssh", "web"] as const;
export type RecordingSource = (typeof RECORDING_SOURCES)[number];

/** A recording of one shell as its owner (or an admin) lists it. */
export const recordingViewSchema = z.object({
  id: z.string(),
  challenge_id: z.string(),
  deployment_id: z.string(),
  source: z.enum(RECORDING_SOURCES),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  bytes: z.number(),
  truncated: z.boolean(),
  published: z.boolean(),
});
export type RecordingView = z.infer<typeof recordingViewSchema>;

/** GET /challenges/{id}/debrief: only once solved (403 before). */
export const debriefSchema = z.object({
  challenge_id: z.string(),
  title: z.string(),
  /** The root cause in a few sentences. */
  debrief: z.string(),
  /** The reference fix, step by step. */
  solution_steps: z.array(z.string()),
  /** The challenge's points, what the solve earned, and what hints took. */
  points: z.number(),
  points_awarded: z.number(),
  hints_cost: z.number(),
  /** Recordings of the solving deployment's shells, oldest first. */
  recordings: z.array(recordingViewSchema),
  /** The commands typed in those shells, in order (from the recordings' input; at most 2,000,
   *  each at most 500 characters). */
  commands: z.array(z.string()),
  /** True when the list stops short: a bound was reached, or a shell's list is not ready yet. */
  commands_cut: z.boolean(),
});
export type Debrief = z.infer<typeof debriefSchema>;

/** A published solution as a public profile shows it. */
export const publishedSolutionSchema = z.object({
  recording_id: z.string(),
  challenge_id: z.string(),
  title: z.string(),
  started_at: z.number(),
  solved_at: z.number(),
});
export type PublishedSolution = z.infer<typeof publishedSolutionSchema>;

export const publishBody = z.strictObject({ published: z.boolean({ error: "must be true or false" }) });
export const recordingIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "not a recording id");
export const adminRecordingsQuery = z.object({
  username: queryText(100),
  limit: wholeNumber(1, 200),
});

const tags = ["Hints and debrief"] as const;
const challenge = z.object({ id: challengeIdParam });
const recording = z.object({ id: recordingIdParam });
const recordings = z.object({ recordings: z.array(recordingViewSchema) });

export const debriefOperations = defineOperations({
  getHints: {
    method: "GET",
    path: "/challenges/:id/hints",
    summary: "The challenge's hints: count, costs, and the texts of those revealed",
    tags,
    access: "user",
    personalToken: "read",
    params: challenge,
    errors: { 404: "No such challenge" },
    response: hintsStateSchema,
  },
  revealHint: {
    method: "POST",
    path: "/challenges/:id/hints/reveal",
    summary: "Reveal the next hint (its cost is deducted only if and when the challenge is solved)",
    tags,
    access: "user",
    params: challenge,
    body: hintRevealBody,
    errors: { 404: "No such challenge", 409: "Not the next hint, or none left" },
    response: hintsStateSchema,
  },
  getDebrief: {
    method: "GET",
    path: "/challenges/:id/debrief",
    summary: "After solving: the root cause, the reference steps, the points and the commands typed",
    tags,
    access: "user",
    personalToken: "read",
    params: challenge,
    errors: { 403: "Not solved yet", 404: "No such challenge" },
    response: debriefSchema,
  },
  listChallengeRecordings: {
    method: "GET",
    path: "/challenges/:id/recordings",
    summary: "The caller's recordings of a challenge's shells",
    tags,
    access: "user",
    personalToken: "read",
    params: challenge,
    response: recordings,
  },
  listMyRecordings: {
    method: "GET",
    path: "/users/me/recordings",
    summary: "Every recording of the caller, newest first",
    tags,
    access: "user",
    personalToken: "read",
    response: recordings,
  },
  getRecording: {
    method: "GET",
    path: "/recordings/:id",
    summary: "One of the caller's recordings",
    tags,
    access: "user",
    personalToken: "read",
    params: recording,
    errors: { 404: "No such recording of the caller's" },
    response: recordingViewSchema,
  },
  getRecordingCast: {
    method: "GET",
    path: "/recordings/:id/cast",
    summary: "A recording's asciicast v2 file: its owner's, or anyone's once published",
    tags,
    access: "optional-user",
    personalToken: "read",
    params: recording,
    contentType: "application/x-asciicast",
    errors: { 404: "No such recording, or not the caller's and not published" },
    response: z.string(),
  },
  setRecordingPublished: {
    method: "PUT",
    path: "/recordings/:id/published",
    summary: "Publish a solved session on the profile, or keep it private",
    tags,
    access: "user",
    params: recording,
    body: publishBody,
    errors: { 404: "No such recording of the caller's", 409: "The challenge is not solved" },
    response: recordingViewSchema,
  },
  listPublishedSolutions: {
    method: "GET",
    path: "/users/:username/solutions",
    summary: "A user's published solutions (sessions they chose to show)",
    tags,
    access: "public",
    personalToken: "read",
    params: z.object({ username: z.string().min(1).max(64) }),
    errors: { 404: "No such user" },
    response: z.object({ solutions: z.array(publishedSolutionSchema) }),
  },
  adminListRecordings: {
    method: "GET",
    path: "/admin/recordings",
    summary: "Recent recordings, optionally of one user (abuse review)",
    tags: ["Admin"],
    access: "admin",
    query: adminRecordingsQuery,
    response: z.object({ recordings: z.array(recordingViewSchema.extend({ username: z.string() })) }),
  },
  adminGetRecordingCast: {
    method: "GET",
    path: "/admin/recordings/:id/cast",
    summary: "Open any recording (audited)",
    tags: ["Admin"],
    access: "admin",
    params: recording,
    contentType: "application/x-asciicast",
    errors: { 404: "No such recording" },
    response: z.string(),
  },
});
