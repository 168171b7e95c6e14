// What a correct answer shows: the grader's feedback, solve time, rank and points (less what
// revealed hints cost), then the debrief: root cause, compare and replay (compare.tsx).
import { Link } from "#app/components/link.tsx";
import type { Debrief } from "#shared/contract/debrief.ts";
import { DebriefPanel } from "./compare.tsx";
import type { SubmissionResult as GradeResult } from "#shared/contract/scoring.ts";
import { formatSolveTime } from "#app/lib/player.ts";
import { rankText } from "#app/features/challenge/rules/solve-result.ts";

export function SuccessScreen({ result, debrief, hydrated }: { result: GradeResult; debrief?: Debrief | null; hydrated: boolean }) {
  return (
    <section className="panel space-y-4 border-emerald-600 dark:border-term-green" role="status" data-testid="success-screen">
      <p className="prompt text-sm text-zinc-500">./check --verify</p>
      <h2 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Challenge complete!</h2>
      {result.feedback ? <p className="whitespace-pre-line text-sm">{result.feedback}</p> : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">solve time</dt>
          <dd className="text-xl font-bold" data-testid="solve-time">
            {result.solve_time_seconds !== null ? formatSolveTime(result.solve_time_seconds) : "n/a"}
          </dd>
        </div>
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">rank</dt>
          <dd className="text-xl font-bold" data-testid="solve-rank">
            {result.rank !== null ? rankText(result.rank, result.ranked_users) : "unranked"}
          </dd>
        </div>
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">points earned</dt>
          <dd className="text-xl font-bold" data-testid="points-earned">
            +{result.points_awarded}
          </dd>
          {result.hints_cost ? (
            <dd className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="hints-cost">
              {result.points_awarded} points ({result.hints_cost} for hints)
            </dd>
          ) : null}
        </div>
      </dl>
      {result.already_solved ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="already-solved">
          You had already solved this challenge: no new points this time.
        </p>
      ) : null}
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Total: <span data-testid="total-points">{result.total_points}</span> points.
      </p>
      {debrief ? <DebriefPanel debrief={debrief} hydrated={hydrated} /> : null}
      <div className="flex flex-wrap gap-3">
        <Link to="/challenges" className="btn-primary">
          next challenge
        </Link>
        <Link to="/leaderboard" className="btn-ghost">
          leaderboard/
        </Link>
      </div>
    </section>
  );
}
