// The challenge page's forms: the four intents its one route action takes (start, extend,
// terminate, submit), the submit form's schema, and the answer the action gives each form.
// The schemas are zod/mini built inside `schema()` (app/lib/forms.ts says why): only the route's
// action parses them, so the page's JavaScript, which reaches this module through the feature's
// index, carries neither them nor zod.
import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod/mini";
import { SOLUTION_MAX } from "#shared/rules.ts";
import type { Debrief } from "#shared/contract/debrief.ts";
import type { SubmissionResult as GradeResult } from "#shared/contract/scoring.ts";
import { REQUIRED, schema } from "#app/lib/forms.ts";
import { TEXT } from "./texts.ts";

export const INTENTS = ["start", "extend", "terminate", "submit", "hint"] as const;
export type Intent = (typeof INTENTS)[number];
export const isIntent = (v: unknown): v is Intent => typeof v === "string" && (INTENTS as readonly string[]).includes(v);

/** The written solution, with the API's own limit (shared/rules.ts), and the deployment it is about. */
export const submitSchema = schema(() =>
  z.object({
    solution: z.string({ error: REQUIRED }).check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(SOLUTION_MAX, `At most ${SOLUTION_MAX} characters`)),
    deployment_uid: z.string({ error: TEXT.noDeployment }).check(z.minLength(1, TEXT.noDeployment)),
  }),
);

/** Reveal a hint: the number the player saw the offer for (the API refuses any other but the next). */
export const hintSchema = schema(() => z.object({ number: z.coerce.number().check(z.int(), z.gte(1), z.lte(100)) }));

/** What the action answers a form (as fetcher data with JavaScript, as actionData without). */
export interface Outcome {
  intent: Intent;
  ok?: string;
  error?: string;
  /** Submit only: the grader's answer, and the deployment it was about. */
  result?: GradeResult;
  /** Submit only, when correct: the debrief (root cause, reference steps, commands typed). */
  debrief?: Debrief;
  deploymentId?: string;
  reply?: SubmissionResult<string[]>;
}
