// Notifications tab: the four e-mail toggles, saved through PUT /users/me/notifications.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import type { NotificationKey } from "#shared/rules.ts";
import type { SignedInUser } from "#shared/contract/index.ts";
import { notificationsSchema } from "#app/lib/forms.ts";
import { CheckboxField } from "./fields.tsx";
import { IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

const TOGGLES: { key: NotificationKey; label: string; hint: string }[] = [
  // What each toggle sends (server/core/accounts/notifications.ts); the last two send nothing yet,
  // and say so.
  { key: "newChallenges", label: "New challenges", hint: "A digest of newly published challenges, at most one e-mail a day." },
  { key: "solutionFeedback", label: "Solution feedback", hint: "The result of each graded submission, with the check's feedback." },
  { key: "leaderboardUpdates", label: "Leaderboard updates", hint: "Someone passed you, or you passed them. Not sent yet." },
  { key: "marketingEmails", label: "Marketing emails", hint: "Product news and offers, rarely. Not sent yet." },
];

export function NotificationsSection({ user, outcome }: { user: SignedInUser; outcome?: Outcome }) {
  const navigation = useNavigation();
  const mine = outcomeFor(outcome, "notifications");
  const busy = useBusy("notifications");
  const [form, fields] = useForm({
    id: "notifications-form",
    lastResult: navigation.state === "idle" ? mine?.reply : undefined,
    defaultValue: user.notifications,
    onValidate: ({ formData }) => parseForm(formData, { schema: notificationsSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Section command="vim ~/.mailrc" title="Email notifications" testId="notifications-section">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <IntentField intent="notifications" />
        <fieldset className="space-y-4">
          <legend className="sr-only">Send me an e-mail about</legend>
          {TOGGLES.map((t) => (
            <CheckboxField
              key={t.key}
              label={t.label}
              hint={t.hint}
              errors={fields[t.key].errors}
              inputProps={getInputProps(fields[t.key], { type: "checkbox" })}
            />
          ))}
        </fieldset>
        <button type="submit" className="btn-primary" disabled={busy}>
          Save notifications
        </button>
        <Status outcome={mine} testId="notifications" />
      </Form>
    </Section>
  );
}
