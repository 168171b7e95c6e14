// Form schemas of the web, with the spec's messages word for word.
import { z } from "zod";
import { LOCATIONS, PASSWORD_MIN, USERNAME_PATTERN, USERNAME_RULE } from "../../server/core/rules.ts";

export const REQUIRED = "Please fill in all required fields";
export const INVALID_EMAIL = "Please enter a valid email address";
export const PASSWORDS_DIFFER = "Passwords do not match";
export const PASSWORD_SHORT = "Password must be at least 8 characters long";

const required = () => z.string({ error: REQUIRED }).trim().min(1, REQUIRED);

export const loginSchema = z.object({
  username: required(),
  password: z.string({ error: REQUIRED }).min(1, REQUIRED),
  redirectTo: z.string().optional(),
});

export const registerSchema = z
  .object({
    username: required().regex(USERNAME_PATTERN, USERNAME_RULE),
    email: z.string({ error: INVALID_EMAIL }).trim().refine((v) => v.includes("@"), INVALID_EMAIL),
    password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT),
    confirmPassword: z.string({ error: PASSWORDS_DIFFER }),
  })
  .refine((d) => d.password === d.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const secondFactorSchema = z.object({
  code: z.string({ error: "Enter the 6-digit code" }).trim().regex(/^\d{6}$/, "Enter the 6-digit code"),
});

export const profileSchema = z.object({
  display_name: z.string().trim().max(64, "At most 64 characters").optional(),
  bio: z.string().trim().max(500, "At most 500 characters").optional(),
  location: z.union([z.enum(LOCATIONS), z.literal("")]).optional(),
  theme: z.enum(["dark", "light"]).default("dark"),
});

export const passwordChangeSchema = z
  .object({
    current_password: z.string({ error: REQUIRED }).min(1, REQUIRED),
    new_password: z.string({ error: REQUIRED }).min(PASSWORD_MIN, PASSWORD_SHORT),
    confirm_password: z.string({ error: REQUIRED }).min(1, REQUIRED),
  })
  .refine((d) => d.new_password === d.confirm_password, { path: ["confirm_password"], message: PASSWORDS_DIFFER });

/** Registration failures: the server's detail when present, else the spec's fallback by status. */
export function registrationError(status: number, detail: string): string {
  if (detail) return detail;
  if (status === 409) return "Username or email already exists";
  if (status === 400) return "Invalid registration data";
  if (status === 404) return "Registration endpoint not found";
  return "Failed to register";
}
