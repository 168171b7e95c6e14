// Form schemas of the admin console (app/routes/admin.tsx). The API validates again; these give
// the field errors beside the fields, with and without JavaScript.
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN, USERNAME_RULE } from "../../shared/rules.ts";
import { INVALID_EMAIL, PASSWORD_SHORT, REQUIRED } from "./forms.ts";

const whole = (label: string) =>
  z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`);

export const settingsFormSchema = z.object({
  session_timeout_minutes: whole("The session timeout").min(1, "The session timeout must be at least 1 minute"),
  max_concurrent_deployments: whole("The maximum").min(1, "The maximum must be at least 1"),
  /** The checkbox: present means on. */
  maintenance_mode: z.boolean().optional(),
});

export const createUserSchema = z.object({
  username: z.string({ error: REQUIRED }).trim().regex(USERNAME_PATTERN, USERNAME_RULE),
  email: z.string({ error: INVALID_EMAIL }).trim().max(254).refine((v) => v.includes("@"), INVALID_EMAIL),
  password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT).max(PASSWORD_MAX),
});

export const planFormSchema = z.object({
  plan: z.enum(["free", "pro"], { error: "Pick free or pro" }),
  /** A date (YYYY-MM-DD) Pro runs to; empty: no end. */
  until: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD, or leave it empty")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T23:59:59Z`)), "Give a real date")
    .optional(),
});

/** The end of the given day (UTC) in epoch seconds; null for no date. */
export const endOfDay = (date: string | undefined) => (date ? Date.parse(`${date}T23:59:59Z`) / 1000 : null);

export const idField = z.object({ id: z.string({ error: "Missing id" }).min(1, "Missing id").max(100) });
