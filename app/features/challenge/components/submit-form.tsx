// The written solution: a post form (conform + zod on the server, rules/form.ts) that keeps the
// text after a wrong answer and clears it after a correct one; the grader's feedback below it.
import { useEffect, useRef } from "react";
import type { Outcome } from "#app/features/challenge/rules/form.ts";
import { TEXT, wrongAnswerFeedback } from "#app/features/challenge/rules/texts.ts";
import type { Control } from "./control-form.tsx";

export function SubmitForm({
  deploymentId,
  control,
  outcome,
  hydrated,
}: {
  deploymentId: string | null;
  control: Control;
  outcome: Outcome | undefined;
  hydrated: boolean;
}) {
  const wrong = outcome?.result && !outcome.result.is_correct ? outcome.result : null;
  const fieldError = outcome?.reply?.error?.solution?.[0];
  const formRef = useRef<HTMLFormElement>(null);
  const previous = outcome?.reply?.initialValue?.solution;
  // With JavaScript the textarea keeps what was typed; without, the server sends it back.
  useEffect(() => {
    if (outcome?.result?.is_correct) formRef.current?.reset();
  }, [outcome]);
  return (
    <section className="panel space-y-4" aria-labelledby="submit-heading" data-testid="submit-section">
      <h2 id="submit-heading" className="prompt text-lg font-bold">
        ./submit
      </h2>
      <control.fetcher.Form method="post" className="space-y-3" ref={formRef} noValidate>
        <input type="hidden" name="intent" value="submit" />
        <input type="hidden" name="deployment_uid" value={deploymentId ?? ""} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <div>
          <label className="label" htmlFor="solution">
            solution
          </label>
          <textarea
            id="solution"
            name="solution"
            rows={5}
            className="input"
            placeholder="What was broken, and what did you change?"
            defaultValue={typeof previous === "string" ? previous : undefined}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "solution-error" : undefined}
            spellCheck={false}
          />
          {fieldError ? (
            <p id="solution-error" className="field-error">
              {fieldError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary" disabled={control.busy} data-testid="submit-button">
          {control.busy ? "validating..." : "submit solution"}
        </button>
      </control.fetcher.Form>
      {wrong ? (
        <div className="alert-error space-y-1" role="alert" data-testid="validation-failed">
          <p className="font-bold">{TEXT.validationFailed}</p>
          <p data-testid="validation-feedback" className="whitespace-pre-line">
            {wrongAnswerFeedback(wrong.feedback)}
          </p>
          <p>{TEXT.tryAgain}</p>
        </div>
      ) : null}
      {outcome?.error ? (
        <p className="alert-error" role="alert" data-testid="submit-error">
          {outcome.error}
        </p>
      ) : null}
    </section>
  );
}
