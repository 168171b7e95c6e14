// Security tab, account basics: change the e-mail address (a link goes to the new one; the old
// stays until it is followed), export my data (a JSON download), and delete the account
// (confirmed with the password, a 2FA code, or, for GitHub/Google accounts with neither, the
// typed username; with JavaScript a dialog asks once more, without it the warning stands above
// the button).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import type { SignedInUser as OwnUser } from "#shared/contract/index.ts";
import { ACCOUNT_TEXTS, deleteAccountByNameSchema, deleteAccountSchema, emailChangeNoProofSchema, emailChangeSchema } from "#app/lib/account-forms.ts";
import { Field, FormErrors } from "#app/components/field.tsx";
import { DangerSubmit, IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

/** What the account can confirm with: its password, a 2FA code, or (neither) its session. */
const proofOf = (user: OwnUser) => ({ password: user.has_password, code: user.totp_enabled });

function StepUpFields({ user, fields }: { user: OwnUser; fields: { current_password: { errors?: string[] } & object; code: { errors?: string[] } & object } }) {
  const p = proofOf(user);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {p.password ? (
        <Field
          label="Current password"
          errors={fields.current_password.errors}
          inputProps={{ ...getInputProps(fields.current_password as never, { type: "password" }), autoComplete: "current-password" }}
        />
      ) : null}
      {p.code ? (
        <Field
          label={p.password ? "or a 6-digit code" : "6-digit code"}
          errors={fields.code.errors}
          inputProps={{ ...getInputProps(fields.code as never, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6 }}
        />
      ) : null}
    </div>
  );
}

export function EmailSection({ user, outcome }: { user: OwnUser; outcome?: Outcome }) {
  const navigation = useNavigation();
  const mine = outcomeFor(outcome, "email-change");
  const busy = useBusy("email-change");
  const needsProof = user.has_password || user.totp_enabled;
  const [form, fields] = useForm({
    id: "email-change-form",
    lastResult: navigation.state === "idle" ? mine?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: needsProof ? emailChangeSchema : emailChangeNoProofSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Section command="chfn --email" title="E-mail address" testId="email-section">
      <p className="text-sm">
        Your address: <span data-testid="current-email">{user.email}</span>. A link goes to the new address; this one stays in use until you follow it.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <IntentField intent="email-change" />
        <FormErrors errors={form.errors} />
        <Field
          label="New e-mail address"
          errors={fields.new_email.errors}
          inputProps={{ ...getInputProps(fields.new_email, { type: "email" }), autoComplete: "email" }}
        />
        {needsProof ? <StepUpFields user={user} fields={fields as never} /> : null}
        <button type="submit" className="btn-primary" disabled={busy}>
          Change e-mail
        </button>
        <Status outcome={mine} testId="email-change" />
      </Form>
    </Section>
  );
}

export function AccountDataSection({ user, outcome }: { user: OwnUser; outcome?: Outcome }) {
  const navigation = useNavigation();
  const mine = outcomeFor(outcome, "account-delete");
  const busy = useBusy("account-delete");
  const needsProof = user.has_password || user.totp_enabled;
  const [form, fields] = useForm({
    id: "account-delete-form",
    lastResult: navigation.state === "idle" ? mine?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: needsProof ? deleteAccountSchema : deleteAccountByNameSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Section command="tar czf ~/me.tar.gz ~ && userdel -r" title="Your data" testId="account-data-section">
      <div className="space-y-2">
        <h3 className="font-bold">Export my data</h3>
        <p className="text-sm">Everything personal faultline holds about you, as one JSON file (no passwords or secrets).</p>
        <a href="/profile/export" className="btn-ghost" download data-testid="export-data">
          Download my data (JSON)
        </a>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-zinc-300 pt-4 dark:border-zinc-800" data-testid="delete-account">
        <h3 className="font-bold text-red-700 dark:text-term-red">Delete account</h3>
        <IntentField intent="account-delete" />
        <p className="alert-warn" role="note">
          {ACCOUNT_TEXTS.deleteWarning}
        </p>
        <FormErrors errors={form.errors} />
        {needsProof ? (
          <StepUpFields user={user} fields={fields as never} />
        ) : (
          <Field
            label={`Type your username (${user.username}) to confirm`}
            errors={fields.username.errors}
            inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "off" }}
          />
        )}
        <DangerSubmit question={ACCOUNT_TEXTS.deleteWarning} busy={busy}>
          Delete my account
        </DangerSubmit>
        <Status outcome={mine} testId="account-delete" />
      </Form>
    </Section>
  );
}
