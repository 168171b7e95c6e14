import { Link } from "#app/components/link.tsx";
import type { ChallengeView } from "#shared/contract/index.ts";
import { BADGES, categoryLabel, DIFFICULTY_CLASSES, PROGRESS_MARKS } from "#app/lib/player.ts";

export function DifficultyTag({ level }: { level: string }) {
  return (
    <span
      className={`rounded border px-2 py-0.5 text-xs font-semibold uppercase ${DIFFICULTY_CLASSES[level] ?? ""}`}
      data-testid="difficulty"
      data-difficulty={level}
    >
      {level}
    </span>
  );
}

export type CardChallenge = Pick<
  ChallengeView,
  "uid" | "title" | "difficulty_level" | "points" | "category" | "estimated_time_minutes" | "short_description" | "badge" | "incident_note" | "solves"
>;

/** Only what a card shows: loaders send this, not the whole challenge (descriptions,
 *  instructions and hints were three quarters of /challenges' HTML, as hydration data). */
export const toCard = (c: ChallengeView): CardChallenge => ({
  uid: c.uid,
  title: c.title,
  difficulty_level: c.difficulty_level,
  points: c.points,
  category: c.category,
  estimated_time_minutes: c.estimated_time_minutes,
  short_description: c.short_description,
  badge: c.badge,
  incident_note: c.incident_note,
  solves: c.solves,
});

/** A catalogue card: the whole card links to the challenge page. `lock`: what the user's plan
 *  does not include (shared/plans.ts lockFor), shown as a badge with the full sentence. */
export function ChallengeCard({
  challenge: c,
  lock,
  progress,
}: {
  challenge: CardChallenge;
  lock?: { label: string; reason: string } | null;
  /** The signed-in player's progress on it (solved, attempted, new); none for a visitor. */
  progress?: string | null;
}) {
  const badge = c.badge ? BADGES[c.badge] : undefined;
  const mark = progress ? PROGRESS_MARKS[progress] : undefined;
  return (
    <article
      className="panel relative flex flex-col gap-3 transition-colors hover:border-emerald-600 dark:hover:border-term-green"
      data-testid="challenge-card"
      data-uid={c.uid}
      data-progress={progress ?? undefined}
    >
      <div className="flex items-start justify-between gap-3">
        <DifficultyTag level={c.difficulty_level} />
        {mark ? (
          <span className={`rounded border px-2 py-0.5 text-xs font-semibold ${mark.className}`} data-testid="challenge-progress">
            <span aria-hidden="true">{mark.icon}</span> {mark.label}
          </span>
        ) : null}
        {lock ? (
          <span
            className="rounded border border-amber-600 px-2 py-0.5 text-xs font-semibold text-amber-800 dark:border-term-amber dark:text-term-amber"
            title={lock.reason}
            data-testid="plan-lock"
          >
            <span aria-hidden="true">🔒</span> {lock.label}
            <span className="sr-only">: {lock.reason}</span>
          </span>
        ) : null}
        {badge ? (
          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${badge.className}`} data-testid="challenge-badge">
            {badge.icon} {badge.label}
          </span>
        ) : null}
      </div>
      <h3 className="text-lg font-bold leading-snug">
        {/* The link's box covers the card (after:inset-0), so the card is one target. */}
        <Link to={`/challenges/${c.uid}`} className="text-zinc-900 no-underline after:absolute after:inset-0 hover:underline dark:text-zinc-100">
          {c.title}
        </Link>
      </h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{c.short_description}</p>
      {c.incident_note ? (
        <p className="border-l-2 border-term-amber pl-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="incident-note">
          <span className="font-semibold text-amber-700 dark:text-term-amber">real incident:</span> {c.incident_note}
        </p>
      ) : null}
      <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800">
        <div>
          <dt className="sr-only">points</dt>
          <dd className="font-bold text-emerald-700 dark:text-term-green">{c.points} pts</dd>
        </div>
        <div>
          <dt className="sr-only">time</dt>
          <dd>~{c.estimated_time_minutes} min</dd>
        </div>
        <div>
          <dt className="sr-only">category</dt>
          <dd>#{categoryLabel(c.category).toLowerCase()}</dd>
        </div>
        <div>
          <dt className="sr-only">solves</dt>
          <dd>
            {c.solves} {c.solves === 1 ? "solve" : "solves"}
          </dd>
        </div>
      </dl>
    </article>
  );
}
