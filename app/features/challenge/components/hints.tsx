// Costed hints: the revealed ones with their texts, then one offer for the next ("Reveal hint 2
// (costs 15 points)"), then the hints still hidden, with their costs. Revealing is a plain form
// post (intent=hint) that works without JavaScript (the action redirects back here); with it a
// fetcher posts and the loader's revalidation brings the text. The page never holds the text of
// a hint before it is revealed: the API does not send it.
import type { HintsState } from "#shared/contract/debrief.ts";
import type { Control } from "./control-form.tsx";

export const revealLabel = (number: number, cost: number, solved: boolean) =>
  solved ? `Reveal hint ${number} (free: already solved)` : `Reveal hint ${number} (costs ${cost} points)`;

export function Hints({ state, control, hydrated }: { state: HintsState; control: Control; hydrated: boolean }) {
  if (!state.count) return null;
  const next = state.hints.find((h) => !h.revealed);
  const error = control.outcome?.error;
  return (
    <div className="space-y-2" id="hints" data-testid="hints">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {state.solved ? "Hints cost nothing any more: you solved this challenge." : "Hints cost points, deducted only if and when you solve this challenge."}
        {state.pending_cost > 0 ? (
          <>
            {" "}
            Revealed so far: <span data-testid="hints-pending-cost">{state.pending_cost}</span> points.
          </>
        ) : null}
      </p>
      {state.hints
        .filter((h) => h.revealed)
        .map((h) => (
          <div key={h.number} className="rounded border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-800" data-testid={`hint-${h.number}`}>
            <p className="label">
              hint {h.number} <span className="text-zinc-500">({h.cost} points)</span>
            </p>
            <p className="mt-1 whitespace-pre-line">{h.text}</p>
          </div>
        ))}
      {next ? (
        <control.fetcher.Form method="post" className="inline">
          <input type="hidden" name="intent" value="hint" />
          <input type="hidden" name="number" value={next.number} />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <button type="submit" className="btn-ghost" disabled={control.busy} data-testid="reveal-hint">
            {revealLabel(next.number, next.cost, state.solved)}
          </button>
        </control.fetcher.Form>
      ) : null}
      {state.hints.filter((h) => !h.revealed).length > 1 ? (
        <p className="text-xs text-zinc-500" data-testid="hints-hidden">
          Then:{" "}
          {state.hints
            .filter((h) => !h.revealed && h !== next)
            .map((h) => `hint ${h.number} (${h.cost} points)`)
            .join(", ")}
          .
        </p>
      ) : null}
      {error ? (
        <p className="alert-error" role="alert" data-testid="hint-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
