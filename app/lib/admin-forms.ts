// Form schemas of the admin console (app/routes/admin.tsx). The API validates again; these give
// the field errors beside the fields, with and without JavaScript. zod/mini, each built inside
// `schema()`, for the same reasons as ./forms.ts.
import * as z from "zod/mini";
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN, USERNAME_RULE } from "#shared/rules.ts";
import { INVALID_EMAIL, PASSWORD_SHORT, REQUIRED, schema } from "./forms.ts";

/** A whole number (zod's `int`: a safe integer) with one message for every way to miss it. */
const whole = (label: string, min: number, tooSmall: string) => z.int({ error: `${label} must be a whole number` }).check(z.gte(min, tooSmall));

export const settingsFormSchema = schema(() =>
  z.object({
    session_timeout_minutes: whole("The deployment duration", 1, "The deployment duration must be at least 1 minute"),
    max_concurrent_deployments: whole("The maximum", 1, "The maximum must be at least 1"),
    /** The checkbox: present means on. */
    maintenance_mode: z.optional(z.boolean()),
  }),
);

export const createUserSchema = schema(() =>
  z.object({
    username: z.string({ error: REQUIRED }).check(z.trim(), z.regex(USERNAME_PATTERN, USERNAME_RULE)),
    email: z.string({ error: INVALID_EMAIL }).check(
      z.trim(),
      z.maxLength(254),
      z.refine((v) => v.includes("@"), INVALID_EMAIL),
    ),
    password: z.string({ error: REQUIRED }).check(z.minLength(PASSWORD_MIN, PASSWORD_SHORT), z.maxLength(PASSWORD_MAX)),
  }),
);

export const planFormSchema = schema(() =>
  z.object({
    plan: z.enum(["free", "pro"], { error: "Pick free or pro" }),
    /** A date (YYYY-MM-DD) Pro runs to; empty: no end. */
    until: z.optional(
      z.string().check(
        z.regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD, or leave it empty"),
        z.refine((v) => !Number.isNaN(Date.parse(`${v}T23:59:59Z`)), "Give a real date"),
      ),
    ),
  }),
);

/** The end of the given day (UTC) in epoch seconds; null for no date. */
export const endOfDay = (date: string | undefined) => (date ? Date.parse(`${date}T23:59:59Z`) / 1000 : null);

export const idField = schema(() => z.object({ id: z.string({ error: "Missing id" }).check(z.minLength(1, "Missing id"), z.maxLength(100)) }));
