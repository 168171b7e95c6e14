// /leaderboard: search, period, the table, prev/next paging ('page / total', 15 a page). A GET
// form and plain links: all of it works without JavaScript; with it, the search updates after a
// 300 ms pause and a page's data is fetched ahead only when the pointer or focus reaches its
// link (prefetching the next page on every render computed the board twice per visit).
import { useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/leaderboard";
import { freshnessHeaders } from "#app/.server/cache.ts";
import { getWeb } from "#app/.server/guards.ts";
import { SearchField, SelectField } from "#app/components/player/filter-fields.tsx";
import { LeaderboardTable } from "#app/components/player/leaderboard-table.tsx";
import { useDebouncedSubmit, useSyncedValue } from "#app/hooks/use-debounced-submit.ts";
import { LEADERBOARD_PAGE_SIZE, PERIOD_OPTIONS, type PeriodValue, pageParam, SEARCH_DEBOUNCE_MS, totalPages } from "#app/lib/player.ts";

export function meta() {
  return [{ title: "leaderboard | faultline" }];
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const isPeriod = (v: string | null): v is PeriodValue => PERIOD_OPTIONS.some((o) => o.value === v);

export async function loader({ request, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  const url = new URL(request.url);
  const search = url.searchParams.get("search")?.trim().slice(0, 100) ?? "";
  const p = url.searchParams.get("period");
  const period: PeriodValue = isPeriod(p) ? p : "all_time";
  const page = pageParam(url.searchParams.get("page"));
  const res = await web.api.getLeaderboard({ query: { page, limit: LEADERBOARD_PAGE_SIZE, period, search } });
  return data(
    {
      entries: res.ok ? res.data.entries : [],
      total: res.ok ? res.data.total : 0,
      error: res.ok ? null : res.detail || "Failed to load the leaderboard",
      search,
      period,
      page,
      me: web.user?.username ?? null,
    },
    { headers: freshnessHeaders(web) },
  );
}

export default function Leaderboard({ loaderData }: Route.ComponentProps) {
  const { entries, total, error, search, period, page, me } = loaderData;
  const pages = totalPages(total, LEADERBOARD_PAGE_SIZE);
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const periodSelect = useRef<HTMLSelectElement>(null);
  const { now, later } = useDebouncedSubmit(SEARCH_DEBOUNCE_MS);
  useSyncedValue(input, search);
  useSyncedValue(periodSelect, period);
  const busy = useNavigation().location?.pathname === "/leaderboard";

  const href = (n: number) => {
    const q = new URLSearchParams();
    if (search) q.set("search", search);
    if (period !== "all_time") q.set("period", period);
    if (n > 1) q.set("page", String(n));
    const s = q.toString();
    return s ? `/leaderboard?${s}` : "/leaderboard";
  };

  return (
    <div className="space-y-6">
      <header>
        <h1 className="prompt text-2xl font-bold">sort -rn leaderboard</h1>
        <p className="mt-2 text-sm text-zinc-500">Points earned by fixing broken systems. Ties share a rank.</p>
      </header>

      <Form ref={form} method="get" role="search" className="panel grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end" data-testid="leaderboard-filters">
        <SearchField ref={input} defaultValue={search} placeholder="username" onType={() => later(form.current)} />
        <SelectField ref={periodSelect} name="period" defaultValue={period} options={PERIOD_OPTIONS} onPick={() => now(form.current)} />
        <button type="submit" className="btn-primary">
          search
        </button>
      </Form>

      <section className={`panel ${busy ? "opacity-60" : ""}`} aria-live="polite" aria-busy={busy}>
        {error ? (
          <div className="alert-error" role="alert">
            {error}
          </div>
        ) : entries.length === 0 ? (
          <p className="py-6 text-center text-zinc-500" data-testid="leaderboard-empty">
            {search ? `No one named like "${search}" has points here yet.` : "No points scored in this period yet. Be the first."}
          </p>
        ) : (
          <LeaderboardTable entries={entries} me={me} />
        )}
        <nav className="mt-4 flex items-center justify-between gap-3 border-t border-zinc-200 pt-4 text-sm dark:border-zinc-800" aria-label="Pages">
          {page > 1 ? (
            <Link to={href(page - 1)} className="btn-ghost px-3 py-1" rel="prev" prefetch="intent">
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
            <Link to={href(page + 1)} className="btn-ghost px-3 py-1" rel="next" prefetch="intent">
              next →
            </Link>
          ) : (
            <span className="btn-ghost cursor-not-allowed px-3 py-1 opacity-40" aria-disabled="true">
              next →
            </span>
          )}
        </nav>
      </section>
    </div>
  );
}
