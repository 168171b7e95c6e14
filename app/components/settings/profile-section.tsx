// Profile tab: display name, bio, location and the theme, saved through PATCH /users/me.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import { LOCATIONS } from "#shared/rules.ts";
import type { SignedInUser } from "#shared/contract/index.ts";
import { profileSchema } from "#app/lib/forms.ts";
import { Field } from "#app/components/field.tsx";
import { CheckboxField, SelectField, TextAreaField } from "./fields.tsx";
import { IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

export function ProfileSection({ user, outcome }: { user: SignedInUser; outcome?: Outcome }) {
  const navigation = useNavigation();
  const mine = outcomeFor(outcome, "profile");
  const busy = useBusy("profile");
  const [form, fields] = useForm({
    id: "profile-form",
    lastResult: navigation.state === "idle" ? mine?.reply : undefined,
    defaultValue: {
      display_name: user.display_name ?? "",
      bio: user.bio ?? "",
      location: user.location ?? "",
      dark_theme: user.theme === "dark",
    },
    onValidate: ({ formData }) => parseForm(formData, { schema: profileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <Section command="chfn" title="Profile" testId="profile-section">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <IntentField intent="profile" />
        <Field
          label="Display name"
          errors={fields.display_name.errors}
          inputProps={{ ...getInputProps(fields.display_name, { type: "text" }), autoComplete: "nickname", placeholder: user.username }}
        />
        <TextAreaField
          label="Bio"
          errors={fields.bio.errors}
          hint="Shown on your public profile. Up to 500 characters."
          textareaProps={{ ...getTextareaProps(fields.bio), rows: 4, placeholder: "What do you like to break and fix?" }}
        />
        <SelectField label="Location" errors={fields.location.errors} selectProps={getSelectProps(fields.location)}>
          <option value="">Select location...</option>
          {LOCATIONS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </SelectField>
        <CheckboxField
          label="Dark theme"
          hint="Green on black. Untick for the light theme."
          errors={fields.dark_theme.errors}
          inputProps={getInputProps(fields.dark_theme, { type: "checkbox" })}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          Save profile
        </button>
        <Status outcome={mine} testId="profile" />
      </Form>
    </Section>
  );
}
