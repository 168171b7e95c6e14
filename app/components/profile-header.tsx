import { Link } from "react-router";
import type { PublicUser } from "../.server/api-client.ts";

/** created_at may be epoch seconds or milliseconds: values above 1e12 are milliseconds. */
export function joinDate(createdAt: number): string {
  const ms = createdAt > 1e12 ? createdAt : createdAt * 1000;
  return new Date(ms).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

export const level = (points: number) => Math.floor(points / 1000);

export function ProfileHeader({ user, own }: { user: PublicUser; own: boolean }) {
  const stats: [string, string | number][] = [
    ["level", level(user.total_points)],
    ["points", user.total_points],
    ["rank", user.rank ? `#${user.rank}` : "unranked"],
    ["challenges", user.challenges_completed],
    ["avg time", user.average_time ? `${Math.round(user.average_time)}m` : "-"],
  ];
  return (
    <section className="panel" data-testid="profile-header">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">
            <span className="text-emerald-600 dark:text-term-green">~</span>
            {user.username}
          </h1>
          {user.display_name ? <p className="text-zinc-500">{user.display_name}</p> : null}
          {user.bio ? <p className="mt-3 max-w-prose whitespace-pre-line text-sm">{user.bio}</p> : null}
          <p className="mt-3 text-xs text-zinc-500">
            {user.location ? <span>📍 {user.location} · </span> : null}
            joined {joinDate(user.created_at)}
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
      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-5">
        {stats.map(([k, v]) => (
          <div key={k} className="rounded border border-zinc-300 p-3 text-center dark:border-zinc-800">
            <dt className="text-xs uppercase text-zinc-500">{k}</dt>
            <dd className="mt-1 text-lg font-bold">{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
