// Security tab: two-factor authentication. States per spec: not enabled -> setup in progress
// (QR code, secret, 6-digit code, Cancel Setup) -> enabled; disabling returns to not enabled.
// Disabling asks for the current password or a current code (step-up) and confirms with the
// spec's question: a dialog with JavaScript, the same words above the button without.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "../../lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import { secondFactorSchema, SETTINGS, totpDisableSchema } from "../../lib/forms.ts";
import { Field } from "../field.tsx";
import { IntentField, type Outcome, outcomeFor, Section, Status, useBusy, useHydrated } from "./shared.tsx";

export interface TotpSetup {
  secret: string;
  qr: string;
}

export function TwoFactorSection({
  enabled,
  hasPassword,
  setup,
  outcome,
}: {
  enabled: boolean;
  /** Accounts without a password (GitHub, Google) confirm with a code only. */
  hasPassword: boolean;
  setup: TotpSetup | null;
  outcome?: Outcome;
}) {
  const mine = outcomeFor(outcome, "2fa-setup", "2fa-verify", "2fa-cancel", "2fa-disable");
  // A failed code stays with the code form (conform shows it there); the rest shows below.
  const sectionStatus = mine?.intent === "2fa-verify" && setup ? undefined : mine;
  return (
    <Section command="2fa --status" title="Two-factor authentication (2FA)" testId="twofa-section">
      {enabled ? (
        <>
          <p className="text-sm" data-testid="twofa-state">
            <span className="text-emerald-700 dark:text-term-green">[on]</span> 2FA is enabled
          </p>
          <DisableForm hasPassword={hasPassword} outcome={outcomeFor(mine, "2fa-disable")} />
        </>
      ) : setup ? (
        <SetupInProgress setup={setup} outcome={outcomeFor(mine, "2fa-verify")} />
      ) : (
        <>
          <p className="text-sm" data-testid="twofa-state">
            <span className="text-zinc-500">[off]</span> 2FA is not enabled. Add a code from an authenticator app to every
            sign-in.
          </p>
          <EnableButton />
        </>
      )}
      <Status outcome={sectionStatus} testId="twofa" />
    </Section>
  );
}

function DisableForm({ hasPassword, outcome }: { hasPassword: boolean; outcome?: Outcome }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = useBusy("2fa-disable");
  const [form, fields] = useForm({
    id: "totp-disable-form",
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: totpDisableSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="twofa-disable">
      <IntentField intent="2fa-disable" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        To turn it off, confirm it is you: {hasPassword ? "your current password, or " : ""}a code from your authenticator app.
      </p>
      {form.errors?.length ? (
        <div className="alert-error" role="alert" data-testid="twofa-disable-error">
          {form.errors[0]}
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {hasPassword ? (
          <Field
            label="Current password"
            errors={fields.current_password.errors}
            inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), autoComplete: "current-password" }}
          />
        ) : null}
        <Field
          label={hasPassword ? "or a 6-digit code" : "6-digit code"}
          errors={fields.code.errors}
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "one-time-code",
            maxLength: 6,
          }}
        />
      </div>
      {/* Without JavaScript there is no dialog: the question stands above the button. */}
      {!hydrated ? (
        <p className="alert-warn" role="note">
          {SETTINGS.totpDisableConfirm}
        </p>
      ) : null}
      <button
        type="submit"
        className="btn-danger"
        disabled={busy}
        onClick={(e) => {
          if (hydrated && !window.confirm(SETTINGS.totpDisableConfirm)) e.preventDefault();
        }}
      >
        Disable 2FA
      </button>
    </Form>
  );
}

function EnableButton() {
  const busy = useBusy("2fa-setup");
  return (
    <Form method="post">
      <IntentField intent="2fa-setup" />
      <button type="submit" className="btn-primary" disabled={busy}>
        Enable 2FA
      </button>
    </Form>
  );
}

function SetupInProgress({ setup, outcome }: { setup: TotpSetup; outcome?: Outcome }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const verifying = useBusy("2fa-verify");
  const cancelling = useBusy("2fa-cancel");
  const [form, fields] = useForm({
    id: "totp-form",
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: secondFactorSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const code = typeof fields.code.value === "string" ? fields.code.value : "";
  // With JavaScript, Verify waits for exactly 6 digits; without, the server checks.
  const ready = !hydrated || /^\d{6}$/.test(code);
  const errors = [...(outcome?.error ? [outcome.error] : []), ...(form.errors ?? [])];

  return (
    <div className="space-y-4" data-testid="twofa-setup">
      {/* Cancel Setup posts this form from inside the code form (forms cannot nest). First, so
          the hidden element adds no gap. */}
      <Form method="post" id="totp-cancel-form" hidden>
        <IntentField intent="2fa-cancel" />
      </Form>
      <ol className="list-inside list-decimal space-y-1 text-sm">
        <li>Scan the QR code with an authenticator app, or type the secret in.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img src={setup.qr} alt="2FA QR code" width={176} height={176} className="size-44 shrink-0 rounded bg-white p-1" />
        <div className="min-w-0 space-y-1">
          <p className="label">Secret</p>
          <code className="block break-all rounded bg-zinc-100 px-2 py-1 text-sm dark:bg-zinc-900" data-testid="totp-secret">
            {setup.secret}
          </code>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <IntentField intent="2fa-verify" />
        {errors.length ? (
          <div className="alert-error" role="alert" data-testid="twofa-error">
            {errors[0]}
          </div>
        ) : null}
        <div className="max-w-52">
          <Field
            label="6-digit code"
            errors={fields.code.errors}
            inputProps={{
              ...getInputProps(fields.code, { type: "text" }),
              inputMode: "numeric",
              autoComplete: "one-time-code",
              maxLength: 6,
            }}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={!ready || verifying}>
            Verify
          </button>
          <button type="submit" form="totp-cancel-form" className="btn-ghost" disabled={cancelling}>
            Cancel Setup
          </button>
        </div>
      </Form>
    </div>
  );
}
