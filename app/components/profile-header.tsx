import { Link } from "./link.tsx";
import type { PublicUser } from "#shared/contract/index.ts";
import { epochMs, formatMinutes } from "#app/lib/player.ts";

/** created_at may be epoch seconds or milliseconds: values above 1e12 are milliseconds. */
export function joinDate(createdAt: number): string {
  return new Date(epochMs(createdAt)).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

export const level = (points: number) => Math.floor(points / 1000);

export function ProfileHeader({ user, own }: { user: PublicUser; own: boolean }) {
  const stats: [string, string | number, string?][] = [
    ["level", user.level ?? level(user.total_points)],
    ["points", user.total_points],
    ["rank", user.rank ? `#${user.rank}` : "unranked", user.rank && user.ranked_users ? `of ${user.ranked_users}` : undefined],
    ["challenges", user.challenges_completed],
    // "–" when nothing was attempted, rather than a made-up figure.
    ["solve rate", user.solve_rate === null || user.solve_rate === undefined ? "–" : `${user.solve_rate}%`],
    ["avg time", formatMinutes(user.average_time)],
  ];
  return (
    <section className="panel" data-testid="profile-header">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="break-all text-2xl font-bold">
            <span className="text-emerald-600 dark:text-term-green">~</span>
            {user.username}
          </h1>
          {user.display_name ? <p className="text-zinc-500">{user.display_name}</p> : null}
          {user.bio ? <p className="mt-3 max-w-prose whitespace-pre-line text-sm">{user.bio}</p> : null}
          <p className="mt-3 text-xs text-zinc-500">
            {user.location ? <span>location: {user.location} · </span> : null}
            <span data-testid="join-date">joined {joinDate(user.created_at)}</span>
            {user.github_username ? (
              <span>
                {" · "}github: <a href={`https://github.com/${user.github_username}`}>{user.github_username}</a>
              </span>
            ) : null}
          </p>
        </div>
        {own ? (
          <Link to="/profile/settings" className="btn-ghost" data-testid="settings-button">
            Settings
          </Link>
        ) : null}
      </div>
      <dl className="mt-6 grid grid-cols-3 gap-2 sm:grid-cols-6 sm:gap-3">
        {stats.map(([k, v, note]) => (
          <div
            key={k}
            className="rounded border border-zinc-300 px-1 py-3 text-center sm:p-3 dark:border-zinc-800"
            data-testid={`profile-${k.replace(" ", "-")}`}
          >
            <dt className="text-xs uppercase text-zinc-500">{k}</dt>
            <dd className="mt-1 text-lg font-bold tabular-nums">
              {v}
              {note ? <span className="ml-1 text-xs font-normal text-zinc-500">{note}</span> : null}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
