import { Link } from "#app/components/link.tsx";
import type { LeaderboardPage } from "#shared/contract/index.ts";
import { formatMinutes } from "#app/lib/player.ts";

/** The podium in colour: gold, silver, bronze (light-theme shades dark enough for 4.5:1 on white). */
const podium = (rank: number) =>
  rank === 1
    ? "text-amber-700 dark:text-term-amber"
    : rank === 2
      ? "text-zinc-600 dark:text-zinc-400"
      : rank === 3
        ? "text-orange-700 dark:text-orange-400"
        : "";

/** rank, username, points, challenges completed, average time; the signed-in user's row stands out. */
export function LeaderboardTable({ entries, me, compact }: { entries: LeaderboardPage["entries"]; me?: string | null; compact?: boolean }) {
  const cell = compact ? "px-1.5 py-1.5 sm:px-2" : "px-1.5 py-2 sm:px-3";
  return (
    <div className="overflow-x-auto">
      <table className="w-full whitespace-nowrap text-left text-xs sm:text-sm" data-testid="leaderboard-table">
        <thead className="border-b border-zinc-300 text-xs uppercase text-zinc-500 dark:border-zinc-800">
          <tr>
            <th scope="col" className={cell}>
              rank
            </th>
            <th scope="col" className={cell}>
              username
            </th>
            <th scope="col" className={`${cell} text-right`}>
              points
            </th>
            <th scope="col" className={`${cell} text-right`}>
              <span className="hidden sm:inline">challenges completed</span>
              <span className="sm:hidden" aria-hidden>
                solved
              </span>
            </th>
            <th scope="col" className={`${cell} text-right`}>
              <span className="hidden sm:inline">average time</span>
              <span className="sm:hidden" aria-hidden>
                avg
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const mine = me?.toLowerCase() === e.username.toLowerCase();
            return (
              <tr
                key={e.username}
                className={`border-b border-zinc-200 last:border-0 dark:border-zinc-900 ${mine ? "bg-emerald-50 dark:bg-emerald-950/40" : ""}`}
                data-testid="leaderboard-row"
                data-username={e.username}
                aria-current={mine ? "true" : undefined}
              >
                <td className={`${cell} font-bold tabular-nums ${podium(e.rank)}`} data-testid="rank">
                  #{e.rank}
                </td>
                <td className={`${cell} max-w-[7.5rem] truncate sm:max-w-none`}>
                  <Link to={`/profile/${encodeURIComponent(e.username)}`} title={e.username}>
                    {e.username}
                  </Link>
                  {mine ? <span className="ml-2 text-xs text-zinc-500">(you)</span> : null}
                </td>
                <td className={`${cell} text-right font-bold tabular-nums text-emerald-700 dark:text-term-green`}>{e.points}</td>
                <td className={`${cell} text-right tabular-nums`}>{e.challenges_completed}</td>
                <td className={`${cell} text-right tabular-nums`}>{formatMinutes(e.average_time)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
