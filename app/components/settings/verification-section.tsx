// Security tab, unverified accounts only: the SETTINGS.unverified warning and a resend button.
import { Form } from "react-router";
import { EMAIL_VERIFICATION_HOURS } from "#shared/rules.ts";
import { SETTINGS } from "#app/lib/forms.ts";
import { IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

export function VerificationSection({ email, outcome }: { email: string; outcome?: Outcome }) {
  const mine = outcomeFor(outcome, "resend-verification");
  const busy = useBusy("resend-verification");
  return (
    <Section command="mail --verify" title="Email verification" testId="verification-section">
      <div className="alert-warn" data-testid="unverified-notice">
        {SETTINGS.unverified}
      </div>
      <p className="text-sm text-zinc-500">
        The link goes to <span className="text-zinc-800 dark:text-zinc-200">{email}</span> and expires in {EMAIL_VERIFICATION_HOURS} hours.
      </p>
      <Form method="post" className="space-y-3">
        <IntentField intent="resend-verification" />
        <button type="submit" className="btn-ghost" disabled={busy}>
          Resend verification email
        </button>
        <Status outcome={mine} testId="verification" />
      </Form>
    </Section>
  );
}
