// After solving (and only then: the API refuses the debrief before): the root cause, "compare"
// (the commands the player typed, in order, beside the reference solution's steps) and
// "replay your session" for each recorded shell of the solving deployment.
import type { Debrief } from "#shared/contract/debrief.ts";
import { Replay } from "./replay.tsx";

export const castUrl = (recordingId: string) => `/recordings/${encodeURIComponent(recordingId)}/cast`;

export function DebriefPanel({ debrief, hydrated }: { debrief: Debrief; hydrated: boolean }) {
  return (
    <div className="space-y-4" data-testid="debrief">
      {debrief.debrief ? (
        <div>
          <h3 className="label">what went wrong</h3>
          <p className="mt-1 whitespace-pre-line text-sm" data-testid="debrief-text">
            {debrief.debrief}
          </p>
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="compare">
        <div>
          <h3 className="label">compare: your commands</h3>
          {debrief.commands.length ? (
            <ol className="mt-1 list-decimal space-y-1 pl-6 font-mono text-xs" data-testid="your-commands">
              {debrief.commands.map((c, i) => (
                <li key={i} className="break-all">
                  {c}
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-1 text-sm text-zinc-500" data-testid="no-commands">
              No recorded commands for this deployment.
            </p>
          )}
          {debrief.commands_cut ? (
            <p className="mt-1 text-xs text-zinc-500" data-testid="commands-cut">
              Not every command is listed: the list stops at a limit, or a shell&apos;s commands are not read yet.
            </p>
          ) : null}
        </div>
        <div>
          <h3 className="label">the reference solution</h3>
          <ol className="mt-1 list-decimal space-y-1 pl-6 text-sm" data-testid="reference-steps">
            {debrief.solution_steps.map((s, i) => (
              <li key={i} className="whitespace-pre-line">
                {s}
              </li>
            ))}
          </ol>
        </div>
      </div>
      {debrief.recordings.map((r, i) => (
        <Replay
          key={r.id}
          src={castUrl(r.id)}
          hydrated={hydrated}
          label={debrief.recordings.length > 1 ? `replay your session (shell ${i + 1}, ${r.source})` : "replay your session"}
        />
      ))}
    </div>
  );
}
