// The challenge's instructions and its hints (folded), shown once the deployment is ready.
import type { ChallengeDetail } from "../../../../shared/contract/deployments.ts";

export function Instructions({ challenge }: { challenge: ChallengeDetail }) {
  if (!challenge.instructions && !challenge.hints?.length) return null;
  return (
    <section className="panel space-y-4" aria-labelledby="instructions-heading" data-testid="instructions">
      <h2 id="instructions-heading" className="prompt text-lg font-bold">
        cat INSTRUCTIONS
      </h2>
      {challenge.instructions ? <div className="whitespace-pre-line text-sm">{challenge.instructions}</div> : null}
      {challenge.hints?.length ? (
        <div className="space-y-2">
          {challenge.hints.map((hint, i) => (
            <details key={i} className="rounded border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-800">
              <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">hint {i + 1}</summary>
              <p className="mt-2 whitespace-pre-line">{hint}</p>
            </details>
          ))}
        </div>
      ) : null}
    </section>
  );
}
