// Home: hero, a stats strip with real figures, 3 featured challenges, the top 11 of the
// leaderboard (the footer comes from the layout).
import { data } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/home";
import { freshnessHeaders } from "#app/.server/cache.ts";
import { getWeb } from "#app/.server/guards.ts";
import { ChallengeCard, toCard } from "#app/components/player/challenge-card.tsx";
import { LeaderboardTable } from "#app/components/player/leaderboard-table.tsx";
import { FEATURED_CHALLENGES, HOME_LEADERBOARD_ROWS } from "#app/lib/player.ts";

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const web = getWeb(context);
  const [stats, featured, board] = await Promise.all([
    web.api.getHomeStats(),
    web.api.listChallenges({ query: { limit: FEATURED_CHALLENGES, is_approved: true, order_by: "votes" } }),
    web.api.getLeaderboard({ query: { page: 1, limit: HOME_LEADERBOARD_ROWS, period: "all_time" } }),
  ]);
  return data(
    {
      signedIn: Boolean(web.user),
      me: web.user?.username ?? null,
      stats: stats.ok ? stats.data : null,
      featured: featured.ok ? featured.data.challenges.map(toCard) : [],
      leaders: board.ok ? board.data.entries : [],
    },
    { headers: freshnessHeaders(web) },
  );
}

const nf = new Intl.NumberFormat("en-US");

export default function Home({ loaderData }: Route.ComponentProps) {
  const { stats, featured, leaders, signedIn, me } = loaderData;
  const figures: [string, string, number | undefined][] = [
    ["challenges", "broken systems to fix", stats?.challenges],
    ["solutions", "correct fixes submitted", stats?.solutions],
    ["hackers", "people practising", stats?.users],
  ];
  return (
    <div className="space-y-12">
      <section className="py-8 sm:py-10">
        <p className="text-sm text-zinc-500">root@faultline:~#</p>
        <h1 className="mt-2 text-4xl font-bold leading-tight sm:text-5xl">
          Something is broken.
          <br />
          <span className="text-emerald-600 dark:text-term-green">You have 30 minutes.</span>
        </h1>
        <p className="mt-4 max-w-2xl text-zinc-600 dark:text-zinc-400">
          Start a real, isolated Linux environment with a fault in it, reach it with plain <code>ssh</code>, fix it, and get graded by a check you cannot fake.
          Practise Linux, networking, storage, security and Kubernetes troubleshooting.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/challenges" className="btn-primary">
            ./start --challenge
          </Link>
          {!signedIn ? (
            <Link to="/register" className="btn-ghost">
              create an account
            </Link>
          ) : (
            <Link to="/profile" className="btn-ghost">
              cd ~/profile
            </Link>
          )}
        </div>
      </section>

      <section aria-label="faultline in numbers" className="grid grid-cols-3 gap-3" data-testid="stats-strip">
        {figures.map(([key, what, value]) => (
          <div key={key} className="panel px-3 py-4 text-center sm:p-5" data-testid={`stat-${key}`}>
            <p className="text-2xl font-bold tabular-nums text-emerald-700 sm:text-3xl dark:text-term-green" data-testid="stat-value">
              {value === undefined ? "-" : nf.format(value)}
            </p>
            <p className="mt-1 text-xs font-semibold uppercase tracking-wide">{key}</p>
            <p className="mt-1 hidden text-xs text-zinc-500 sm:block">{what}</p>
          </div>
        ))}
      </section>

      <section className="space-y-4" data-testid="featured">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 className="prompt text-xl font-bold">ls challenges/ | head -3</h2>
          <Link to="/challenges" className="text-sm">
            all challenges →
          </Link>
        </div>
        {featured.length ? (
          <div className="grid gap-4 md:grid-cols-3">
            {featured.map((c) => (
              <ChallengeCard key={c.uid} challenge={c} />
            ))}
          </div>
        ) : (
          <p className="panel text-center text-zinc-500">No challenges found</p>
        )}
      </section>

      <section className="space-y-4" data-testid="home-leaderboard">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 className="prompt text-xl font-bold">sort -rn leaderboard | head -11</h2>
          <Link to="/leaderboard" className="text-sm">
            full leaderboard →
          </Link>
        </div>
        <div className="panel">
          {leaders.length ? (
            <LeaderboardTable entries={leaders} me={me} compact />
          ) : (
            <p className="py-4 text-center text-sm text-zinc-500">No one has scored yet. Fix something and take the top spot.</p>
          )}
        </div>
      </section>
    </div>
  );
}
