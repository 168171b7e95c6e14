// Security tab: the sign-in method. OAuth accounts get a note naming their provider; accounts with a
// password can change it (the API answers with a fresh token pair, so the login stays).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import type { SignedInUser } from "#shared/contract/index.ts";
import { passwordChangeSchema } from "#app/lib/forms.ts";
import { providerLabel } from "#app/lib/providers.ts";
import { Field } from "#app/components/field.tsx";
import { IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

export function PasswordSection({ user, outcome }: { user: SignedInUser; outcome?: Outcome }) {
  if (!user.has_password && !user.oauth_provider) return null;
  return (
    <Section command="passwd" title="Password" testId="password-section">
      {user.oauth_provider ? (
        <p className="text-sm" data-testid="oauth-note">
          You signed in with {providerLabel(user.oauth_provider)}
        </p>
      ) : null}
      {user.has_password ? <PasswordForm outcome={outcome} /> : null}
    </Section>
  );
}

function PasswordForm({ outcome }: { outcome?: Outcome }) {
  const navigation = useNavigation();
  const mine = outcomeFor(outcome, "password");
  const busy = useBusy("password");
  const [form, fields] = useForm({
    id: "password-form",
    lastResult: navigation.state === "idle" ? mine?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: passwordChangeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <IntentField intent="password" />
      <Field
        label="Current password"
        errors={fields.current_password.errors}
        inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), autoComplete: "current-password" }}
      />
      <Field
        label="New password"
        errors={fields.new_password.errors}
        inputProps={{ ...getInputProps(fields.new_password, { type: "password" }), autoComplete: "new-password" }}
      />
      <Field
        label="Confirm new password"
        errors={fields.confirm_password.errors}
        inputProps={{ ...getInputProps(fields.confirm_password, { type: "password" }), autoComplete: "new-password" }}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        Change password
      </button>
      <Status outcome={mine} testId="password" />
    </Form>
  );
}
