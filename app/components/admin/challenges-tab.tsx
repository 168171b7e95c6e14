// Challenges: every challenge with its figures, hide or show in the catalogue, and reloading the
// content from CHALLENGES_DIR (what loaded, what was added or removed, and each folder that did
// not load, with the file and field at fault). New Challenge points to the contributor format.
import type { ChallengeFigures, ReloadReport } from "#shared/contract/admin.ts";
import { formatSolveTime } from "#app/lib/player.ts";
import { ActionButton, type AdminOutcome, OutcomeLine } from "./shared.tsx";

function Report({ report }: { report: ReloadReport }) {
  return (
    <div className="panel space-y-2 text-sm" data-testid="reload-report">
      <p>
        Loaded {report.loaded.length} challenge{report.loaded.length === 1 ? "" : "s"}
        {report.added.length ? `; added ${report.added.join(", ")}` : ""}
        {report.removed.length ? `; removed ${report.removed.join(", ")}` : ""}.
      </p>
      {report.problems.length ? (
        <div className="alert-warn" data-testid="reload-problems">
          <p className="font-semibold">
            {report.problems.length} folder{report.problems.length === 1 ? "" : "s"} did not load:
          </p>
          <ul className="list-disc pl-5">
            {report.problems.map((p) => (
              <li key={p} className="break-all font-mono text-xs">
                {p}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>Every folder loaded.</p>
      )}
    </div>
  );
}

export function ChallengesTab({ challenges, outcome }: { challenges: ChallengeFigures[] | null; outcome?: AdminOutcome }) {
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <ActionButton intent="reload" label="Reload content" />
        <a href="/docs#challenge-format" className="btn-ghost px-2 py-1 text-xs">
          New Challenge
        </a>
      </div>
      <OutcomeLine outcome={outcome} intents={["reload"]} />
      {outcome?.intent === "reload" && outcome.report ? <Report report={outcome.report} /> : null}
      {!challenges ? (
        <p className="alert-error">The challenges could not be read.</p>
      ) : (
        <section className="panel overflow-x-auto" aria-label="Challenges">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="py-1 pr-3">challenge</th>
                <th className="py-1 pr-3">starts</th>
                <th className="py-1 pr-3">solves</th>
                <th className="py-1 pr-3">success rate</th>
                <th className="py-1 pr-3">median solve</th>
                <th className="py-1 pr-3">catalogue</th>
                <th className="py-1">actions</th>
              </tr>
            </thead>
            <tbody>
              {challenges.map((c) => (
                <tr key={c.id} className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid={`challenge-row-${c.id}`}>
                  <td className="py-2 pr-3">
                    <span className="font-semibold">{c.title}</span>
                    <br />
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">
                      {c.id} · {c.difficulty} · {c.category} · {c.points} pts
                    </span>
                  </td>
                  <td className="py-2 pr-3" data-testid="challenge-starts">
                    {c.starts}
                  </td>
                  <td className="py-2 pr-3" data-testid="challenge-solves">
                    {c.solves}
                  </td>
                  <td className="py-2 pr-3">{c.success_rate === null ? "–" : `${c.success_rate}%`}</td>
                  <td className="py-2 pr-3">{c.median_solve_seconds === null ? "–" : formatSolveTime(c.median_solve_seconds)}</td>
                  <td className="py-2 pr-3 text-xs" data-testid="challenge-visibility">
                    {!c.in_library ? "not in library" : c.hidden ? "hidden" : "listed"}
                  </td>
                  <td className="py-2">
                    {c.hidden ? <ActionButton intent="show" id={c.id} label="show" /> : <ActionButton intent="hide" id={c.id} label="hide" />}
                    <div className="mt-1">
                      <OutcomeLine outcome={outcome} intents={["hide", "show"]} id={c.id} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
