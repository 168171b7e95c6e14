// Rules shared by the API's validation and the web's forms: one place for each limit and each
// sentence both sides show. A leaf: it imports nothing from app/ or server/ (see
// docs/architecture.md), so the browser bundle may take it too.
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
export const USERNAME_RULE = "Usernames are 3 to 32 letters, digits, _ or -";
/** A challenge's id: its directory under challenges/ (the loader skips others) and the `:id` of
 *  every route that names one. Also a container and host name part, hence the bound. */
export const CHALLENGE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/**
 * Names no account may take, now or by any later rename: names that would pass for the platform
 * or its staff in the audit log, on the board or in a mail, and names of pages under /profile/.
 * Challenge ids are refused too (isReservedUsername takes them: they are known at run time).
 */
export const RESERVED_USERNAMES: readonly string[] = [
  "abuse",
  "admin",
  "administrator",
  "admins",
  "api",
  "billing",
  "docs",
  "export",
  "faultline",
  "help",
  "hostmaster",
  "info",
  "mail",
  "moderator",
  "no-reply",
  "noreply",
  "official",
  "owner",
  "pool",
  "postmaster",
  "root",
  "security",
  "settings",
  "staff",
  "status",
  "superuser",
  "support",
  "sysadmin",
  "system",
  "webmaster",
];

/** Whether `name` is reserved: a word above, or the id of a challenge (any case either way). */
export function isReservedUsername(name: string, challengeIds: Iterable<string> = []): boolean {
  const n = name.trim().toLowerCase();
  if (RESERVED_USERNAMES.includes(n)) return true;
  for (const id of challengeIds) if (id.toLowerCase() === n) return true;
  return false;
}
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const BIO_MAX = 500;
export const DISPLAY_NAME_MAX = 64;

export const LOCATIONS = [
  "San Francisco, CA",
  "New York, NY",
  "Seattle, WA",
  "Austin, TX",
  "Boston, MA",
  "Los Angeles, CA",
  "Chicago, IL",
  "Denver, CO",
  "Portland, OR",
  "Atlanta, GA",
  "London, UK",
  "Berlin, Germany",
  "Amsterdam, Netherlands",
  "Toronto, Canada",
  "Sydney, Australia",
  "Tokyo, Japan",
  "Singapore",
  "Remote",
  "Other",
] as const;

export const NOTIFICATION_KEYS = ["newChallenges", "solutionFeedback", "leaderboardUpdates", "marketingEmails"] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

export const EMAIL_VERIFICATION_HOURS = 24;
/** The longest written solution the API accepts (judged by server/core/answers.ts); the web's
 *  form says the same number. */
export const SOLUTION_MAX = 16_384;
export const MFA_CODE_LENGTH = 6;

/** The unverified banner text, also the API's 403 detail when an unverified user starts a challenge. */
export const VERIFY_TO_START = "Email verification required to start challenges. Please check your email and verify your account.";
export const NO_ACTIVE_DEPLOYMENT = "No active deployment found. Please start the challenge first.";
export const VALIDATION_FAILED_DEFAULT = "Challenge validation failed. Please check your solution and try again.";

/** Step-up before sensitive changes (turning 2FA off): the API's 400 and the web form's message. */
export const STEP_UP_REQUIRED = "Confirm with your current password or a code from your authenticator app";
