// The plans' rules and the sentences that state them, shared by the server (which enforces them,
// server/core/plans.ts) and the web (which shows the locks and the pricing dialog). A leaf: it
// imports nothing from app/ or server/.
//
// Free: every easy challenge, 3 medium a calendar month (UTC, counted when a deployment starts; a
// start that fails before it is ready does not count), no hard or expert, one deployment at a
// time. Pro (while plan_until is ahead, or without an end when an admin grants it): everything,
// up to 3 deployments at once.
import type { Difficulty } from "./contract/catalogue.ts";

export const PLAN_NAMES = ["free", "pro"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const FREE_MEDIUM_PER_MONTH = 3;
export const CONCURRENT_DEPLOYMENTS: Record<PlanName, number> = { free: 1, pro: 3 };
/** What each plan opens without counting. Free's medium challenges are counted (above). */
export const PLAN_DIFFICULTIES: Record<PlanName, readonly Difficulty[]> = {
  free: ["easy", "medium"],
  pro: ["easy", "medium", "hard", "expert"],
};

export const PAYMENTS_DISABLED = "Payments are not enabled on this installation: nothing will be charged, and your plan stays as it is.";

/** The plan in force: Pro counts while `until` (epoch seconds) is ahead, or has no end. */
export function effectivePlan(plan: string, until: number | null, nowSeconds: number): PlanName {
  return plan === "pro" && (until === null || until > nowSeconds) ? "pro" : "free";
}

/** The first second of the UTC calendar month holding `nowSeconds`, and of the next one. */
export function monthBounds(nowSeconds: number): { start: number; next: number } {
  const d = new Date(nowSeconds * 1000);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  return { start, next };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const dayOf = (seconds: number) => new Date(seconds * 1000).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });
const quoted = (titles: string[]) => titles.map((t) => `"${t}"`).join(titles.length > 2 ? ", " : " and ");

/** Why a plan cannot start a challenge of this difficulty at all (null: it can). */
export function difficultyLock(plan: PlanName, difficulty: string): string | null {
  if ((PLAN_DIFFICULTIES[plan] as readonly string[]).includes(difficulty)) return null;
  return `${capital(difficulty)} challenges are not included in the free plan (easy, and ${FREE_MEDIUM_PER_MONTH} medium a month). Pro includes every level, hard and expert included.`;
}

/** Free's monthly medium allowance is used up (null: a medium start is still possible). */
export function mediumLock(plan: PlanName, usedThisMonth: number, nextMonthStart: number): string | null {
  if (plan === "pro" || usedThisMonth < FREE_MEDIUM_PER_MONTH) return null;
  return `The free plan includes ${FREE_MEDIUM_PER_MONTH} medium challenges a month and you have started ${usedThisMonth} this month; the next month starts on ${dayOf(nextMonthStart)} (UTC). Pro has no monthly limit.`;
}

/** Too many deployments running for the plan: the titles of the running ones, to end one first. */
export function concurrencyRefusal(plan: PlanName, runningTitles: string[]): string {
  if (plan === "free") {
    return `The free plan runs one deployment at a time: terminate your deployment of ${quoted(runningTitles)} first. Pro runs up to ${CONCURRENT_DEPLOYMENTS.pro} at once.`;
  }
  return `Pro runs up to ${CONCURRENT_DEPLOYMENTS.pro} deployments at a time: terminate your deployment of ${quoted(runningTitles)} first.`;
}

/** What the plan leaves locked, for a card or a challenge page: a short label and the full
 *  sentence the API would answer with (null: nothing locked). */
export function lockFor(
  status: { plan: PlanName; usage: { medium_started_this_month: number }; month_resets_at: string },
  difficulty: string,
): { label: string; reason: string } | null {
  const byLevel = difficultyLock(status.plan, difficulty);
  if (byLevel) return { label: "Pro", reason: byLevel };
  if (difficulty !== "medium") return null;
  const quota = mediumLock(status.plan, status.usage.medium_started_this_month, Date.parse(status.month_resets_at) / 1000);
  return quota ? { label: "limit reached", reason: quota } : null;
}

/** What a visitor (not signed in) is shown: the free plan, nothing used yet. */
export function visitorStatus(nowSeconds: number) {
  return { plan: "free" as const, usage: { medium_started_this_month: 0 }, month_resets_at: new Date(monthBounds(nowSeconds).next * 1000).toISOString() };
}
