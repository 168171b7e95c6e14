// The profile's tabs: Overview (recent activity), Achievements, Solutions. Tabs are links
// (?tab=...), so they work without JavaScript.
import { Link } from "#app/components/link.tsx";
import type { Activity, PublicUser, PublishedSolution, RecordingView, SolvedChallenge } from "#shared/contract/index.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { formatDate, formatSolveTime, PROFILE_TABS, type ProfileTab } from "#app/lib/player.ts";
import { DifficultyTag } from "./challenge-card.tsx";
import { OwnSessions, PublishedSessions } from "./solution-sessions.tsx";

const LABELS: Record<ProfileTab, string> = { overview: "Overview", achievements: "Achievements", solutions: "Solutions" };

export function ProfileTabs(props: {
  base: string;
  tab: ProfileTab;
  user: PublicUser;
  activity: Activity[];
  solved: SolvedChallenge[];
  /** Sessions published with the solutions (anyone may replay them). */
  published: PublishedSolution[];
  /** The owner's own recordings (their /profile only): each can be published or kept private. */
  ownRecordings?: RecordingView[];
  error: string | null;
}) {
  const { base, tab } = props;
  return (
    <section className="panel" data-testid="profile-tabs">
      <nav className="-mt-1 mb-5 flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800" aria-label="Profile sections">
        {PROFILE_TABS.map((t) => (
          <Link
            key={t}
            to={t === "overview" ? base : `${base}?tab=${t}`}
            preventScrollReset
            aria-current={t === tab ? "page" : undefined}
            className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm no-underline ${
              t === tab
                ? "border-emerald-600 font-bold text-zinc-900 dark:border-term-green dark:text-zinc-100"
                : "border-transparent text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200"
            }`}
          >
            {LABELS[t]}
            {t === "solutions" ? <span className="ml-1 text-xs">({props.solved.length})</span> : null}
          </Link>
        ))}
      </nav>
      {props.error ? <div className="alert-error mb-4">{props.error}</div> : null}
      {tab === "overview" ? <Overview activity={props.activity} /> : null}
      {tab === "achievements" ? <Achievements user={props.user} /> : null}
      {tab === "solutions" ? <Solutions solved={props.solved} published={props.published} ownRecordings={props.ownRecordings} /> : null}
    </section>
  );
}

function Overview({ activity }: { activity: Activity[] }) {
  return (
    <div data-testid="tab-overview">
      <h2 className="prompt mb-3 font-bold">history | tail</h2>
      <ol className="space-y-2 text-sm">
        {activity.map((a, i) => (
          <li key={`${a.type}-${a.at}-${i}`} className="flex flex-wrap items-baseline gap-x-3 gap-y-1" data-testid="activity-item">
            <time className="w-28 shrink-0 text-xs tabular-nums text-zinc-500" dateTime={new Date(a.at * 1000).toISOString()}>
              {formatDate(a.at)}
            </time>
            {a.type === "solve" ? (
              <span>
                <span className="text-emerald-700 dark:text-term-green">✔ solved</span> <Link to={`/challenges/${a.challenge_id}`}>{a.title}</Link>{" "}
                <span className="text-zinc-500">
                  +{a.points} pts in {formatSolveTime(a.solve_seconds)}
                </span>
              </span>
            ) : a.type === "achievement" ? (
              <span>
                <span aria-hidden>{a.icon}</span> unlocked <strong>{a.title}</strong> <span className="text-zinc-500">+{a.xp} xp</span>
              </span>
            ) : (
              <span className="text-zinc-500">joined faultline</span>
            )}
          </li>
        ))}
      </ol>
      {activity.every((a) => a.type === "joined") ? (
        <p className="mt-4 text-sm text-zinc-500">No challenges solved yet. Solved challenges will show up here.</p>
      ) : null}
    </div>
  );
}

function Achievements({ user }: { user: PublicUser }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-3" data-testid="tab-achievements">
      {user.achievements.map((a) => (
        <li
          key={a.id}
          className={`rounded border p-4 ${
            a.unlocked ? "border-emerald-600 dark:border-term-green" : "border-dashed border-zinc-300 opacity-60 dark:border-zinc-700"
          }`}
          data-testid="achievement"
          data-unlocked={a.unlocked ? "true" : "false"}
        >
          <p className={`text-3xl ${a.unlocked ? "text-emerald-600 dark:text-term-green" : "text-zinc-400"}`} aria-hidden>
            {a.icon}
          </p>
          <h3 className="mt-2 font-bold">{a.title}</h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{a.description}</p>
          <p className="mt-2 text-xs text-zinc-500">
            +{a.xp} xp · {a.unlocked ? `unlocked ${a.unlocked_at ? formatDate(a.unlocked_at) : ""}` : "locked"}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Solutions({ solved, published, ownRecordings }: { solved: SolvedChallenge[]; published: PublishedSolution[]; ownRecordings?: RecordingView[] }) {
  const hydrated = useHydrated();
  if (!solved.length) {
    return (
      <p className="text-sm text-zinc-500" data-testid="tab-solutions">
        No solutions yet. <Link to="/challenges">Pick a challenge</Link>.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto" data-testid="tab-solutions">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-300 text-xs uppercase text-zinc-500 dark:border-zinc-800">
          <tr>
            <th className="px-2 py-2">challenge</th>
            <th className="px-2 py-2">difficulty</th>
            <th className="hidden px-2 py-2 sm:table-cell">category</th>
            <th className="px-2 py-2 text-right">points</th>
            <th className="px-2 py-2 text-right">time</th>
            <th className="hidden px-2 py-2 text-right sm:table-cell">solved</th>
            <th className="px-2 py-2">session</th>
          </tr>
        </thead>
        <tbody>
          {solved.map((s) => (
            <tr key={s.id} className="border-b border-zinc-200 last:border-0 dark:border-zinc-900" data-testid="solution-row">
              <td className="px-2 py-2">
                <Link to={`/challenges/${s.id}`}>{s.title}</Link>
              </td>
              <td className="px-2 py-2">{s.difficulty_level ? <DifficultyTag level={s.difficulty_level} /> : "-"}</td>
              <td className="hidden px-2 py-2 sm:table-cell">{s.category ?? "-"}</td>
              <td className="px-2 py-2 text-right font-bold tabular-nums text-emerald-700 dark:text-term-green">{s.points}</td>
              <td className="px-2 py-2 text-right tabular-nums">{formatSolveTime(s.solve_seconds)}</td>
              <td className="hidden px-2 py-2 text-right tabular-nums sm:table-cell">{formatDate(s.solved_at)}</td>
              <td className="px-2 py-2 align-top">
                {ownRecordings ? (
                  <OwnSessions recordings={ownRecordings.filter((r) => r.challenge_id === s.id)} hydrated={hydrated} />
                ) : (
                  <PublishedSessions sessions={published.filter((p) => p.challenge_id === s.id)} hydrated={hydrated} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
