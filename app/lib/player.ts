// Pure helpers of the player's pages (catalogue, leaderboard, profiles, home): labels, colours,
// formats. Safe in the browser bundle.
import { DIFFICULTIES } from "#shared/contract/catalogue.ts";

export const CATEGORY_OPTIONS = [
  { value: "all", label: "All" },
  { value: "linux", label: "Linux" },
  { value: "kubernetes", label: "Kubernetes" },
  { value: "storage", label: "Storage" },
  { value: "security", label: "Security" },
  { value: "networking", label: "Networking" },
] as const;

export const DIFFICULTY_OPTIONS = ["all", ...DIFFICULTIES] as const;

/** The catalogue's orders (the `sort` field; the API's order_by). No "rating": nothing is rated yet. */
export const SORT_OPTIONS = [
  { value: "votes", label: "featured" },
  { value: "points", label: "points" },
  { value: "difficulty", label: "difficulty" },
  { value: "newest", label: "newest" },
  { value: "solves", label: "most solved" },
] as const;
export type SortValue = (typeof SORT_OPTIONS)[number]["value"];
export const isSort = (v: string | null): v is SortValue => SORT_OPTIONS.some((o) => o.value === v);

/** The catalogue's progress filter, shown to signed-in players only. */
export const PROGRESS_OPTIONS = [
  { value: "all", label: "All" },
  { value: "unsolved", label: "unsolved" },
  { value: "solved", label: "solved" },
] as const;
export type ProgressValue = (typeof PROGRESS_OPTIONS)[number]["value"];
export const isProgress = (v: string | null): v is ProgressValue => PROGRESS_OPTIONS.some((o) => o.value === v);

/** A card's mark of the signed-in player's progress. */
export const PROGRESS_MARKS: Record<string, { icon: string; label: string; className: string }> = {
  solved: { icon: "✓", label: "solved", className: "border-emerald-600 text-emerald-700 dark:border-term-green dark:text-term-green" },
  attempted: { icon: "◐", label: "attempted", className: "border-amber-600 text-amber-800 dark:border-term-amber dark:text-term-amber" },
  new: { icon: "○", label: "new", className: "border-zinc-400 text-zinc-600 dark:border-zinc-600 dark:text-zinc-400" },
};

/** Challenges a catalogue page shows (the API's largest page). */
export const CATALOGUE_PAGE_SIZE = 100;

export const PERIOD_OPTIONS = [
  { value: "all_time", label: "All Time" },
  { value: "this_month", label: "This Month" },
  { value: "this_week", label: "This Week" },
  { value: "today", label: "Today" },
] as const;
export type PeriodValue = (typeof PERIOD_OPTIONS)[number]["value"];

export const LEADERBOARD_PAGE_SIZE = 15;
export const HOME_LEADERBOARD_ROWS = 11;
export const FEATURED_CHALLENGES = 3;
export const SEARCH_DEBOUNCE_MS = 300;
export const NO_CHALLENGES = "No challenges found";

/** Difficulty colours: easy green, medium yellow, hard red, expert purple (the catalogue's cards
 *  and the challenge page's badge alike). */
export const DIFFICULTY_CLASSES: Record<string, string> = {
  easy: "border-emerald-600 text-emerald-700 dark:border-term-green dark:text-term-green",
  medium: "border-yellow-500 text-yellow-700 dark:border-yellow-400 dark:text-yellow-300",
  hard: "border-red-600 text-red-700 dark:border-term-red dark:text-term-red",
  expert: "border-purple-600 text-purple-700 dark:border-term-purple dark:text-term-purple",
};

export const BADGES: Record<string, { icon: string; label: string; className: string }> = {
  trending: { icon: "▲", label: "trending", className: "bg-orange-100 text-orange-800 dark:bg-orange-950/60 dark:text-orange-300" },
  new: { icon: "✦", label: "new", className: "bg-cyan-100 text-cyan-800 dark:bg-cyan-950/60 dark:text-term-cyan" },
  popular: { icon: "★", label: "popular", className: "bg-amber-100 text-amber-800 dark:bg-amber-950/60 dark:text-term-amber" },
};

export const categoryLabel = (c: string) => CATEGORY_OPTIONS.find((o) => o.value === c.toLowerCase())?.label ?? c;

/** Minutes with one decimal as "12.5m"; "-" when unknown. */
export const formatMinutes = (m: number | null | undefined) => (m === null || m === undefined ? "-" : `${m}m`);

/** A solve time in seconds as "12m 04s"; an hour or more reads "1h 02m 03s". The one format of a
 *  solve time everywhere: the success screen, profiles and the admin console. */
export function formatSolveTime(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s % 60)}s` : `${m}m ${pad(s % 60)}s`;
}

/** Epoch seconds or milliseconds (values above 1e12 are milliseconds) to milliseconds. */
export const epochMs = (t: number) => (t > 1e12 ? t : t * 1000);

/** A date as "Jul 15, 2026" in UTC, the same on the server and in the browser. */
export const formatDate = (t: number) => new Date(epochMs(t)).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** Clamps a page number read from the URL. */
export function pageParam(v: string | null): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export const totalPages = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

export const PROFILE_TABS = ["overview", "achievements", "solutions"] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];
