// What a correct answer shows: the grader's feedback, solve time, rank and points.
import { Link } from "react-router";
import type { SubmissionResult as GradeResult } from "../../../../shared/contract/scoring.ts";
import { formatSolveTime } from "../../../lib/player.ts";
import { rankText } from "../rules/solve-result.ts";

export function SuccessScreen({ result }: { result: GradeResult }) {
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
