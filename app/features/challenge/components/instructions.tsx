// The challenge's instructions and its costed hints (hints.tsx), shown once the deployment is ready.
import type { HintsState } from "#shared/contract/debrief.ts";
import type { ChallengeDetail } from "#shared/contract/deployments.ts";
import type { Control } from "./control-form.tsx";
import { Hints } from "./hints.tsx";

export function Instructions({
  challenge,
  hints,
  hintControl,
  hydrated,
}: {
  challenge: ChallengeDetail;
  hints: HintsState | null;
  hintControl: Control;
  hydrated: boolean;
}) {
  if (!challenge.instructions && !hints?.count) return null;
  return (
    <section className="panel space-y-4" aria-labelledby="instructions-heading" data-testid="instructions">
      <h2 id="instructions-heading" className="prompt text-lg font-bold">
        cat INSTRUCTIONS
      </h2>
      {challenge.instructions ? <div className="whitespace-pre-line text-sm">{challenge.instructions}</div> : null}
      {hints ? <Hints state={hints} control={hintControl} hydrated={hydrated} /> : null}
    </section>
  );
}
