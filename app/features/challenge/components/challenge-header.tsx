// The challenge itself: title, difficulty, points, estimated time, category and description.
import type { ChallengeGrading } from "#shared/contract/catalogue.ts";
import type { ChallengeDetail } from "#shared/contract/deployments.ts";
import { DifficultyBadge } from "./badges.tsx";

export function ChallengeHeader({ challenge }: { challenge: ChallengeDetail }) {
  return (
    <header className="space-y-3">
      <h1 className="text-2xl font-bold sm:text-3xl">{challenge.title}</h1>
      <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-zinc-600 dark:text-zinc-400">
        <div>
          <dt className="sr-only">difficulty</dt>
          <dd>
            <DifficultyBadge level={challenge.difficulty_level} />
          </dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">points</dt>
          <dd data-testid="challenge-points">{challenge.points} pts</dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">estimated time</dt>
          <dd data-testid="challenge-time">~{challenge.estimated_time_minutes || 30} min</dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">category</dt>
          <dd data-testid="challenge-category">#{challenge.category}</dd>
        </div>
      </dl>
      <div className="max-w-3xl space-y-3" data-testid="challenge-description">
        {paragraphs(challenge.description).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {challenge.grading ? <Grading grading={challenge.grading} /> : null}
    </header>
  );
}

/** How the check judges a submission, said before anyone starts (decision 008). */
function Grading({ grading }: { grading: ChallengeGrading }) {
  return (
    <details className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400" data-testid="challenge-grading">
      <summary className="cursor-pointer">How it is graded</summary>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          The fix is checked from outside the system, on the running deployment
          {grading.after_reboot ? " and again on a copy of its disk after a reboot: a fix that a restart undoes does not count" : ""}.
        </li>
        {grading.answer ? (
          <li>
            Your written answer must name {grading.answer.names.join(", and ")}. Name one of each: an answer that names more than one candidate of a kind is
            refused. A deployment takes {grading.answer.wrong_answers_allowed} wrong answers; after that, reset it for a new incident.
          </li>
        ) : null}
      </ul>
    </details>
  );
}

/** Content is wrapped at ~100 columns in YAML: blank lines separate paragraphs, single breaks do not. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
}
