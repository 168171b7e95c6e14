// /challenges: the catalogue. One GET form (search, category, difficulty) that works without
// JavaScript; with it, typing updates the results after a 300 ms pause and the selects at once.
// The filtering happens in the database (GET /challenges/).
import { useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/challenges";
import { freshnessHeaders } from "#app/.server/cache.ts";
import { getWeb } from "#app/.server/guards.ts";
import { ChallengeCard, toCard } from "#app/components/player/challenge-card.tsx";
import { SearchField, SelectField } from "#app/components/player/filter-fields.tsx";
import { useDebouncedSubmit, useSyncedValue } from "#app/hooks/use-debounced-submit.ts";
import { CATEGORY_OPTIONS, DIFFICULTY_OPTIONS, NO_CHALLENGES, SEARCH_DEBOUNCE_MS } from "#app/lib/player.ts";
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
  const res = await web.api.listChallenges({
    query: {
      limit: 100,
      is_approved: true,
      order_by: "votes",
      search,
      category: category === "all" ? undefined : category,
      difficulty: difficulty === "all" ? undefined : (difficulty as never),
    },
  });
  // What the plan does not include (a visitor sees the free plan's locks).
  const plan = web.token ? await web.api.as(web.token).getPlan() : null;
  const status = plan?.ok ? plan.data : visitorStatus(Math.floor(Date.now() / 1000));
  const locks = Object.fromEntries((res.ok ? res.data.challenges : []).map((c) => [c.uid, lockFor(status, c.difficulty_level)]));
  return data(
    {
      locks,
      challenges: res.ok ? res.data.challenges.map(toCard) : [],
      error: res.ok ? null : res.detail || "Failed to load challenges",
      search,
      category,
      difficulty,
      unverified: Boolean(web.user && !web.user.is_verified),
    },
    { headers: freshnessHeaders(web) },
  );
}

export default function Challenges({ loaderData }: Route.ComponentProps) {
  const { challenges, error, search, category, difficulty, unverified, locks } = loaderData;
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const { now, later } = useDebouncedSubmit(SEARCH_DEBOUNCE_MS);
  const categorySelect = useRef<HTMLSelectElement>(null);
  const difficultySelect = useRef<HTMLSelectElement>(null);
  useSyncedValue(input, search);
  useSyncedValue(categorySelect, category);
  useSyncedValue(difficultySelect, difficulty);
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

      <Form ref={form} method="get" role="search" className="panel grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end" data-testid="challenge-filters">
        <SearchField ref={input} defaultValue={search} placeholder="grep title, description, tags…" onType={() => later(form.current)} />
        <SelectField ref={categorySelect} name="category" defaultValue={category} options={CATEGORY_OPTIONS} onPick={() => now(form.current)} />
        <SelectField
          ref={difficultySelect}
          name="difficulty"
          defaultValue={difficulty}
          options={DIFFICULTY_OPTIONS.map((d) => ({ value: d, label: d === "all" ? "All" : d }))}
          onPick={() => now(form.current)}
        />
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
              {challenges.length} {challenges.length === 1 ? "challenge" : "challenges"}
            </p>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {challenges.map((c) => (
                <ChallengeCard key={c.uid} challenge={c} lock={locks[c.uid]} />
              ))}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
