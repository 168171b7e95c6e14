// /challenges: the catalogue. One GET form (search, category with its counts, difficulty, sort
// and, for a signed-in player, progress) that works without JavaScript; with it, typing updates
// the results after a 300 ms pause and the selects at once. Filtering, ordering and paging
// (100 a page) happen in the database (GET /challenges/); a signed-in player's cards say
// solved, attempted or new. A visitor's page carries no progress (it is kept whole for the next
// visitor: server/http/page-cache.ts), and a page that failed is never kept.
import { useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/challenges";
import { freshnessHeaders } from "#app/.server/cache.ts";
import { getWeb } from "#app/.server/guards.ts";
import { ChallengeCard, toCard } from "#app/components/player/challenge-card.tsx";
import { SearchField, SelectField } from "#app/components/player/filter-fields.tsx";
import { useDebouncedSubmit, useSyncedValue } from "#app/hooks/use-debounced-submit.ts";
import {
  CATALOGUE_PAGE_SIZE,
  CATEGORY_OPTIONS,
  DIFFICULTY_OPTIONS,
  isProgress,
  isSort,
  NO_CHALLENGES,
  pageParam,
  PROGRESS_OPTIONS,
  type ProgressValue,
  SEARCH_DEBOUNCE_MS,
  SORT_OPTIONS,
  type SortValue,
  totalPages,
} from "#app/lib/player.ts";
import { MAX_PAGE } from "#shared/contract/catalogue.ts";
import { lockFor, visitorStatus } from "#shared/plans.ts";
import { VERIFY_TO_START } from "#shared/rules.ts";

export function meta() {
  return [{ title: "challenges | faultline" }];
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  const url = new URL(request.url);
  const search = url.searchParams.get("search")?.trim() ?? "";
  const category = url.searchParams.get("category")?.toLowerCase() || "all";
  const difficulty = url.searchParams.get("difficulty")?.toLowerCase() || "all";
  // Unknown sorts and progress words read as the default; a page past MAX_PAGE as the last one
  // asked for (the API would refuse them with a 400 naming its own field).
  const s = url.searchParams.get("sort");
  const sort: SortValue = isSort(s) ? s : "votes";
  const p = url.searchParams.get("progress");
  // Progress is the signed-in player's own: a visitor's page never asks for it.
  const progress: ProgressValue = web.user && isProgress(p) ? p : "all";
  const page = Math.min(pageParam(url.searchParams.get("page")), MAX_PAGE);
  const api = web.user && web.token ? web.api.as(web.token) : web.api;
  const res = await api.listChallenges({
    query: {
      limit: CATALOGUE_PAGE_SIZE,
      page,
      is_approved: true,
      order_by: sort,
      search,
      category: category === "all" ? undefined : category,
      difficulty: difficulty === "all" ? undefined : (difficulty as never),
      progress: progress === "all" ? undefined : progress,
    },
  });
  // What the plan does not include (a visitor sees the free plan's locks).
  const plan = web.token ? await web.api.as(web.token).getPlan() : null;
  const status = plan?.ok ? plan.data : visitorStatus(Math.floor(Date.now() / 1000));
  const listed = res.ok ? res.data.challenges : [];
  const locks = Object.fromEntries(listed.map((c) => [c.uid, lockFor(status, c.difficulty_level)]));
  const progressOf = Object.fromEntries(listed.flatMap((c) => (c.progress ? [[c.uid, c.progress] as const] : [])));
  const counts = res.ok ? Object.fromEntries(res.data.categories.map((c) => [c.category, c.count])) : null;
  return data(
    {
      locks,
      progressOf,
      challenges: listed.map(toCard),
      total: res.ok ? res.data.total : 0,
      counts,
      error: res.ok ? null : res.detail || "Failed to load challenges",
      search,
      category,
      difficulty,
      sort,
      progress,
      page,
      signedIn: Boolean(web.user),
      unverified: Boolean(web.user && !web.user.is_verified),
    },
    // A failed page is not kept for the next visitor (nor by the browser).
    { headers: res.ok ? freshnessHeaders(web) : { "Cache-Control": "no-store", Vary: "Cookie" } },
  );
}

export default function Challenges({ loaderData }: Route.ComponentProps) {
  const { challenges, error, search, category, difficulty, sort, progress, page, total, counts, signedIn, unverified, locks, progressOf } = loaderData;
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const { now, later } = useDebouncedSubmit(SEARCH_DEBOUNCE_MS);
  const categorySelect = useRef<HTMLSelectElement>(null);
  const difficultySelect = useRef<HTMLSelectElement>(null);
  const sortSelect = useRef<HTMLSelectElement>(null);
  const progressSelect = useRef<HTMLSelectElement>(null);
  useSyncedValue(input, search);
  useSyncedValue(categorySelect, category);
  useSyncedValue(difficultySelect, difficulty);
  useSyncedValue(sortSelect, sort);
  useSyncedValue(progressSelect, progress);
  const pages = totalPages(total, CATALOGUE_PAGE_SIZE);
  // The category select says how many each holds under the other filters.
  const allCount = counts ? Object.values(counts).reduce((n, c) => n + c, 0) : null;
  const categoryOptions = CATEGORY_OPTIONS.map((o) => {
    const n = o.value === "all" ? allCount : counts ? (counts[o.value] ?? 0) : null;
    return { value: o.value, label: n === null ? o.label : `${o.label} (${n})` };
  });
  const href = (n: number) => {
    const q = new URLSearchParams();
    if (search) q.set("search", search);
    if (category !== "all") q.set("category", category);
    if (difficulty !== "all") q.set("difficulty", difficulty);
    if (sort !== "votes") q.set("sort", sort);
    if (progress !== "all") q.set("progress", progress);
    if (n > 1) q.set("page", String(n));
    const s = q.toString();
    return s ? `/challenges?${s}` : "/challenges";
  };
  const busy = useNavigation().location?.pathname === "/challenges";

  return (
    <div className="space-y-6">
      <header>
        <h1 className="prompt text-2xl font-bold">ls challenges/</h1>
        <p className="mt-2 text-sm text-zinc-500">Broken systems waiting for you. Pick one, ssh in, fix it.</p>
      </header>

      {unverified ? (
        <div className="alert-warn" data-testid="unverified-notice">
          {VERIFY_TO_START} <Link to="/profile/settings?tab=security">Resend the link</Link>
        </div>
      ) : null}

      <Form
        ref={form}
        method="get"
        role="search"
        className="panel grid gap-3 sm:grid-cols-2 sm:items-end lg:grid-cols-[1fr_auto_auto_auto_auto_auto]"
        data-testid="challenge-filters"
      >
        <SearchField ref={input} defaultValue={search} placeholder="grep title, description, tags…" onType={() => later(form.current)} />
        <SelectField ref={categorySelect} name="category" defaultValue={category} options={categoryOptions} onPick={() => now(form.current)} />
        <SelectField
          ref={difficultySelect}
          name="difficulty"
          defaultValue={difficulty}
          options={DIFFICULTY_OPTIONS.map((d) => ({ value: d, label: d === "all" ? "All" : d }))}
          onPick={() => now(form.current)}
        />
        <SelectField ref={sortSelect} name="sort" defaultValue={sort} options={SORT_OPTIONS} onPick={() => now(form.current)} />
        {signedIn ? (
          <SelectField ref={progressSelect} name="progress" defaultValue={progress} options={PROGRESS_OPTIONS} onPick={() => now(form.current)} />
        ) : null}
        <button type="submit" className="btn-primary">
          search
        </button>
      </Form>

      <div aria-live="polite" aria-busy={busy} className={busy ? "opacity-60 transition-opacity" : "transition-opacity"}>
        {error ? (
          <div className="alert-error" role="alert" data-testid="challenges-error">
            {error}
          </div>
        ) : challenges.length === 0 ? (
          <p className="panel text-center text-zinc-500" data-testid="no-challenges">
            {NO_CHALLENGES}
          </p>
        ) : (
          <>
            <p className="mb-3 text-xs text-zinc-500" data-testid="challenge-count">
              {total} {total === 1 ? "challenge" : "challenges"}
            </p>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {challenges.map((c) => (
                <ChallengeCard key={c.uid} challenge={c} lock={locks[c.uid]} progress={progressOf[c.uid]} />
              ))}
            </div>
          </>
        )}
        {!error && pages > 1 ? (
          <nav className="mt-4 flex items-center justify-between gap-3 text-sm" aria-label="Pages" data-testid="challenge-pages">
            {page > 1 ? (
              <Link to={href(Math.min(page - 1, pages))} className="btn-ghost px-3 py-1" rel="prev">
                ← prev
              </Link>
            ) : (
              <span className="btn-ghost cursor-not-allowed px-3 py-1 opacity-40" aria-disabled="true">
                ← prev
              </span>
            )}
            <span className="tabular-nums text-zinc-500" data-testid="page-indicator">
              {page} / {pages}
            </span>
            {page < pages ? (
              <Link to={href(page + 1)} className="btn-ghost px-3 py-1" rel="next">
                next →
              </Link>
            ) : (
              <span className="btn-ghost cursor-not-allowed px-3 py-1 opacity-40" aria-disabled="true">
                next →
              </span>
            )}
          </nav>
        ) : null}
      </div>
    </div>
  );
}
