// System: the settings an admin changes while the platform runs (the deployment duration and the cap on
// deployments running at once, obeyed by new deployments; maintenance mode, which stops new
// deployments and shows the global banner). One form, "Save Changes".
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form } from "react-router";
import type { SystemSettingsWithLimits } from "#shared/contract/admin.ts";
import { settingsFormSchema } from "#app/lib/admin-forms.ts";
import { Field } from "#app/components/field.tsx";
import { type AdminOutcome, OutcomeLine } from "./shared.tsx";

export function SystemTab({ settings, outcome }: { settings: SystemSettingsWithLimits | null; outcome?: AdminOutcome }) {
  const [form, fields] = useForm({
    id: "admin-settings",
    lastResult: outcome?.intent === "save-settings" ? outcome.reply : undefined,
    defaultValue: settings
      ? {
          session_timeout_minutes: String(settings.session_timeout_minutes),
          max_concurrent_deployments: String(settings.max_concurrent_deployments),
          maintenance_mode: settings.maintenance_mode ? "on" : undefined,
        }
      : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: settingsFormSchema }),
    shouldRevalidate: "onBlur",
  });
  if (!settings) return <p className="alert-error">The settings could not be read.</p>;
  const { limits } = settings;
  return (
    <section className="panel space-y-4" aria-labelledby="admin-system-title">
      <h2 id="admin-system-title" className="text-lg font-bold">
        Configuration
      </h2>
      {settings.maintenance_mode ? (
        <p className="alert-warn" data-testid="maintenance-on">
          Maintenance mode is on: new deployments are refused, running ones continue.
        </p>
      ) : null}
      <OutcomeLine outcome={outcome} intents={["save-settings"]} />
      <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:max-w-md">
        <input type="hidden" name="intent" value="save-settings" />
        <Field
          label={`Deployment duration (minutes, ${limits.sessionTimeoutMin}–${limits.sessionTimeoutMax})`}
          errors={fields.session_timeout_minutes.errors}
          inputProps={{ ...getInputProps(fields.session_timeout_minutes, { type: "number" }), min: limits.sessionTimeoutMin, max: limits.sessionTimeoutMax }}
        />
        <Field
          label="Max concurrent deployments (whole platform)"
          errors={fields.max_concurrent_deployments.errors}
          inputProps={{ ...getInputProps(fields.max_concurrent_deployments, { type: "number" }), min: limits.maxConcurrentMin, max: limits.maxConcurrentMax }}
        />
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.maintenance_mode, { type: "checkbox" })} />
          Maintenance mode (no new deployments; running ones continue)
        </label>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">New deployments use these values; running ones keep theirs.</p>
        <div>
          <button type="submit" className="btn-primary">
            Save Changes
          </button>
        </div>
      </Form>
    </section>
  );
}
