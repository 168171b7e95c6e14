// Security tab: two-factor authentication. Its states: not enabled -> setup in progress
// (QR code, secret, 6-digit code, Cancel Setup) -> enabled; disabling returns to not enabled.
// Turning it on asks for the current password first (accounts that have one: a stolen session
// alone must not add a factor, decision 017). Once on: the recovery codes, shown once (right
// after enabling, and after making new ones), how many are left, when its codes start to confirm
// e-mail, key and deletion changes, a pending removal for a lost authenticator, new codes and
// turning it off (each behind the password, a code or a recovery code). Disabling confirms with
// SETTINGS.totpDisableConfirm: a dialog with JavaScript, the same words above the button without.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import type { TotpStatus } from "#shared/contract/index.ts";
import { factorProofSchema, secondFactorSchema, SETTINGS, totpSetupSchema } from "#app/lib/forms.ts";
import { Field } from "#app/components/field.tsx";
import { DangerSubmit, IntentField, type Outcome, outcomeFor, Section, Status, useBusy, useHydrated } from "./shared.tsx";

export interface TotpSetup {
  secret: string;
  qr: string;
}

/** An instant the same on the server and in the browser: "2026-11-27 10:00 UTC". */
const utc = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;

export function TwoFactorSection({
  enabled,
  hasPassword,
  setup,
  status,
  outcome,
}: {
  enabled: boolean;
  /** Accounts without a password (GitHub, Google) confirm with a code only. */
  hasPassword: boolean;
  setup: TotpSetup | null;
  /** The factor's details once it is on (GET /auth/2fa); null when they could not be read. */
  status: TotpStatus | null;
  outcome?: Outcome;
}) {
  const mine = outcomeFor(outcome, "2fa-setup", "2fa-verify", "2fa-cancel", "2fa-codes", "2fa-disable");
  // A failed code stays with the code form (conform shows it there); the rest shows below.
  const sectionStatus = (mine?.intent === "2fa-verify" && setup) || mine?.intent === "2fa-codes" ? undefined : mine;
  return (
    <Section command="2fa --status" title="Two-factor authentication (2FA)" testId="twofa-section">
      {enabled ? (
        <>
          <p className="text-sm" data-testid="twofa-state">
            <span className="text-emerald-700 dark:text-term-green">[on]</span> 2FA is enabled
          </p>
          {mine?.recoveryCodes ? <RecoveryCodesOnce codes={mine.recoveryCodes} /> : null}
          {status ? <FactorDetails status={status} hasPassword={hasPassword} /> : null}
          <NewCodesForm hasPassword={hasPassword} outcome={outcomeFor(mine, "2fa-codes")} />
          <DisableForm hasPassword={hasPassword} outcome={outcomeFor(mine, "2fa-disable")} />
        </>
      ) : setup ? (
        <SetupInProgress setup={setup} outcome={outcomeFor(mine, "2fa-verify")} />
      ) : (
        <>
          <p className="text-sm" data-testid="twofa-state">
            <span className="text-zinc-500">[off]</span> 2FA is not enabled. Add a code from an authenticator app to every sign-in.
          </p>
          <EnableForm hasPassword={hasPassword} outcome={outcomeFor(mine, "2fa-setup")} />
        </>
      )}
      <Status outcome={sectionStatus} testId="twofa" />
    </Section>
  );
}

/** The codes, this once: the page never shows them again. */
function RecoveryCodesOnce({ codes }: { codes: string[] }) {
  return (
    <div className="alert-warn space-y-2" data-testid="recovery-codes">
      <p className="font-semibold">Save your recovery codes now</p>
      <p className="text-sm">
        Each code signs you in once in place of a code from your app, if you lose it. They are shown only this once: copy or print them and keep them somewhere
        safe.
      </p>
      <ol className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
    </div>
  );
}

function FactorDetails({ status, hasPassword }: { status: TotpStatus; hasPassword: boolean }) {
  const now = Math.floor(Date.now() / 1000);
  const fresh = status.enrolled_in_this_sign_in || (status.step_up_from !== null && now < status.step_up_from);
  return (
    <div className="space-y-2 text-sm">
      <p data-testid="recovery-codes-left" className={status.recovery_codes_left <= 3 ? "text-amber-700 dark:text-amber-400" : undefined}>
        {status.recovery_codes_left} of 10 recovery codes left.
      </p>
      {fresh && status.step_up_from !== null ? (
        <p className="text-zinc-600 dark:text-zinc-400" data-testid="twofa-fresh">
          Codes from this authenticator confirm e-mail, SSH key and account deletion changes from {utc(status.step_up_from)}, in a later sign-in than the one
          that turned it on.{hasPassword ? " Until then, confirm those with your password." : ""}
        </p>
      ) : null}
      {status.removal_at !== null ? (
        <p className="alert-warn" role="alert" data-testid="twofa-removal">
          2FA will be turned off on {utc(status.removal_at)}: someone followed the link for a lost authenticator. Signing in with a code or a recovery code
          cancels it.
        </p>
      ) : null}
    </div>
  );
}

function EnableForm({ hasPassword, outcome }: { hasPassword: boolean; outcome?: Outcome }) {
  const navigation = useNavigation();
  const busy = useBusy("2fa-setup");
  const [form, fields] = useForm({
    id: "totp-setup-form",
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    onValidate: hasPassword ? ({ formData }) => parseForm(formData, { schema: totpSetupSchema }) : undefined,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="twofa-enable">
      <IntentField intent="2fa-setup" />
      {hasPassword ? (
        <div className="max-w-sm">
          <Field
            label="Current password"
            errors={fields.current_password.errors}
            inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), autoComplete: "current-password" }}
          />
        </div>
      ) : null}
      <button type="submit" className="btn-primary" disabled={busy}>
        Enable 2FA
      </button>
    </Form>
  );
}

/** The step-up of changes to the factor itself: the password, or a code or recovery code. */
function FactorProofFields({ hasPassword, fields }: { hasPassword: boolean; fields: ReturnType<typeof useFactorProofForm>[1] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {hasPassword ? (
        <Field
          label="Current password"
          errors={fields.current_password.errors}
          inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), autoComplete: "current-password" }}
        />
      ) : null}
      <Field
        label={hasPassword ? "or a 6-digit code or recovery code" : "6-digit code or recovery code"}
        errors={fields.code.errors}
        inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "one-time-code", maxLength: 24, spellCheck: false }}
      />
    </div>
  );
}

function useFactorProofForm(id: string, outcome?: Outcome) {
  const navigation = useNavigation();
  return useForm({
    id,
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: factorProofSchema }),
    shouldValidate: "onSubmit",
  });
}

function NewCodesForm({ hasPassword, outcome }: { hasPassword: boolean; outcome?: Outcome }) {
  const busy = useBusy("2fa-codes");
  const [form, fields] = useFactorProofForm("totp-codes-form", outcome);
  return (
    <details className="space-y-4" open={outcome?.error || form.errors?.length ? true : undefined} data-testid="twofa-new-codes">
      <summary className="cursor-pointer text-sm underline">Make new recovery codes</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
        <IntentField intent="2fa-codes" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The codes you have now stop working. Confirm it is you first.</p>
        {form.errors?.length ? (
          <div className="alert-error" role="alert">
            {form.errors[0]}
          </div>
        ) : null}
        <FactorProofFields hasPassword={hasPassword} fields={fields} />
        <button type="submit" className="btn-ghost" disabled={busy}>
          Make new codes
        </button>
        <Status outcome={outcome?.error ? outcome : undefined} testId="twofa-codes" />
      </Form>
    </details>
  );
}

function DisableForm({ hasPassword, outcome }: { hasPassword: boolean; outcome?: Outcome }) {
  const busy = useBusy("2fa-disable");
  const [form, fields] = useFactorProofForm("totp-disable-form", outcome);
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="twofa-disable">
      <IntentField intent="2fa-disable" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        To turn it off, confirm it is you: {hasPassword ? "your current password, or " : ""}a code from your authenticator app or a recovery code.
      </p>
      {form.errors?.length ? (
        <div className="alert-error" role="alert" data-testid="twofa-disable-error">
          {form.errors[0]}
        </div>
      ) : null}
      <FactorProofFields hasPassword={hasPassword} fields={fields} />
      <DangerSubmit question={SETTINGS.totpDisableConfirm} busy={busy} noteWithoutJs>
        Disable 2FA
      </DangerSubmit>
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
