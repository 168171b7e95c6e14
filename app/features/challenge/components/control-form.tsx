// One deployment control (start, extend, terminate, submit): a fetcher per intent, and the small
// post form of the buttons. Without JavaScript the form posts to the route action and the
// answer arrives as actionData; with it the fetcher posts (js=1) and keeps the answer.
import { useFetcher } from "react-router";
import type { Intent, Outcome } from "#app/features/challenge/rules/form.ts";

/** One fetcher per control; without JavaScript the same outcome arrives as actionData. */
export function useControl(intent: Intent, actionData: Outcome | undefined) {
  const fetcher = useFetcher<Outcome>({ key: `challenge-${intent}` });
  const outcome = (fetcher.data as Outcome | undefined) ?? (actionData?.intent === intent ? actionData : undefined);
  return { fetcher, outcome, busy: fetcher.state !== "idle" };
}

export type Control = ReturnType<typeof useControl>;

export function ControlForm({
  control,
  intent,
  label,
  className,
  disabled,
  hydrated,
  testId,
  onSubmit,
}: {
  onSubmit?: (intent: Intent) => void;
  control: Control;
  intent: Intent;
  label: string;
  className: string;
  disabled: boolean;
  hydrated: boolean;
  testId: string;
}) {
  return (
    <control.fetcher.Form method="post" className="inline" onSubmit={() => onSubmit?.(intent)}>
      <input type="hidden" name="intent" value={intent} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button type="submit" className={className} disabled={disabled || control.busy} data-testid={testId}>
        {control.busy ? `${label}...` : label}
      </button>
    </control.fetcher.Form>
  );
}
