// Security tab: personal API tokens (docs/decisions/020-personal-api-tokens.md). A token is made
// with a name, a scope and an expiry, and shown in full once, in the answer to the post that made
// it (never kept for the page); afterwards the list shows each token's name, scope, dates and a
// revoke button. Plain forms: without JavaScript the post re-renders the page with the outcome.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { PersonalToken } from "#shared/contract/index.ts";
import { PERSONAL_TOKEN_EXPIRY_DEFAULT, PERSONAL_TOKEN_TEXTS, PERSONAL_TOKENS_MAX } from "#shared/personal-token-rules.ts";
import { personalTokenFormSchema } from "#app/lib/forms.ts";
import { parseForm } from "#app/lib/parse-form.ts";
import { Field } from "#app/components/field.tsx";
import { DangerSubmit, IntentField, type Outcome, outcomeFor, Section, Status, useBusy } from "./shared.tsx";

const EXPIRY_LABELS = { "30": "30 days", "90": "90 days", "365": "1 year", none: "No expiry" } as const;
const SCOPE_LABELS = {
  read: "read: challenges, the leaderboard, your deployments and recordings",
  play: "play: read, and start, reset or terminate deployments and submit answers",
} as const;

/** A time to the minute, in UTC (last use is kept to the minute). */
const when = (t: number) => new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

export function ApiTokensSection({ tokens, outcome }: { tokens: PersonalToken[] | null; outcome?: Outcome }) {
  const mine = outcomeFor(outcome, "token-create", "token-revoke");
  return (
    <Section command="faultline login --token" title="API tokens" testId="tokens-section">
      <p className="text-sm">
        Personal API tokens let scripts and the command line call the API as you: send <code>Authorization: Bearer &lt;token&gt;</code> to <code>/api/v1</code>.
        No token reaches your account, settings, tokens, billing, two-factor or the admin console. At most {PERSONAL_TOKENS_MAX} at once.
      </p>
      {mine?.intent === "token-create" && mine.token ? <NewToken token={mine.token} /> : null}
      <TokenList tokens={tokens} />
      <CreateForm outcome={outcomeFor(mine, "token-create")} />
      {mine?.intent === "token-revoke" ? <Status outcome={mine} testId="tokens" /> : null}
    </Section>
  );
}

function NewToken({ token }: { token: string }) {
  return (
    <div className="alert-ok space-y-2" role="status" data-testid="token-created">
      <p>{PERSONAL_TOKEN_TEXTS.created}</p>
      <code className="block select-all break-all rounded bg-zinc-100 px-2 py-1 dark:bg-black dark:text-term-green" data-testid="token-secret">
        {token}
      </code>
    </div>
  );
}

function TokenList({ tokens }: { tokens: PersonalToken[] | null }) {
  if (tokens === null) {
    return (
      <p className="alert-error" role="alert">
        Your API tokens could not be read right now: reload the page.
      </p>
    );
  }
  if (!tokens.length) {
    return (
      <p className="text-sm text-zinc-500" data-testid="tokens-empty">
        No API tokens yet.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="tokens-list">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th className="py-1 pr-3 font-normal">Name</th>
            <th className="py-1 pr-3 font-normal">Scope</th>
            <th className="py-1 pr-3 font-normal">Created</th>
            <th className="py-1 pr-3 font-normal">Expires</th>
            <th className="py-1 pr-3 font-normal">Last used</th>
            <th className="py-1 font-normal">
              <span className="sr-only">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <TokenRow key={t.id} token={t} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TokenRow({ token: t }: { token: PersonalToken }) {
  const busy = useBusy("token-revoke");
  return (
    <tr className="border-t border-zinc-200 dark:border-zinc-800" data-testid="token-row" data-token-id={t.id}>
      <td className="break-all py-2 pr-3" data-testid="token-name">
        {t.name}
      </td>
      <td className="py-2 pr-3" data-testid="token-scope">
        {t.scope}
      </td>
      <td className="py-2 pr-3 tabular-nums">{day(t.created_at)}</td>
      <td className="py-2 pr-3 tabular-nums" data-testid="token-expires">
        {t.expires_at === null ? "never" : t.expired ? `expired ${day(t.expires_at)}` : day(t.expires_at)}
      </td>
      <td className="py-2 pr-3 tabular-nums" data-testid="token-last-used">
        {t.last_used_at === null ? "never" : when(t.last_used_at)}
      </td>
      <td className="py-2 text-right">
        <Form method="post">
          <IntentField intent="token-revoke" />
          <input type="hidden" name="id" value={t.id} />
          <DangerSubmit question={`Revoke the API token "${t.name}"? Anything using it stops working at once.`} busy={busy}>
            Revoke
          </DangerSubmit>
        </Form>
      </td>
    </tr>
  );
}

function CreateForm({ outcome }: { outcome?: Outcome }) {
  const navigation = useNavigation();
  const busy = useBusy("token-create");
  const [form, fields] = useForm({
    id: "token-form",
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    defaultValue: { scope: "read", expires_in_days: PERSONAL_TOKEN_EXPIRY_DEFAULT },
    onValidate: ({ formData }) => parseForm(formData, { schema: personalTokenFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="token-form">
      <IntentField intent="token-create" />
      <Field
        label="Token name"
        errors={fields.name.errors}
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", placeholder: "laptop CLI" }}
      />
      <div>
        <label htmlFor={fields.scope.id} className="label">
          Scope
        </label>
        <select {...getSelectProps(fields.scope)} className="input">
          {(Object.keys(SCOPE_LABELS) as (keyof typeof SCOPE_LABELS)[]).map((s) => (
            <option key={s} value={s}>
              {SCOPE_LABELS[s]}
            </option>
          ))}
        </select>
        {fields.scope.errors?.length ? (
          <p className="field-error" role="alert">
            {fields.scope.errors[0]}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor={fields.expires_in_days.id} className="label">
          Expires
        </label>
        <select {...getSelectProps(fields.expires_in_days)} className="input">
          {(Object.keys(EXPIRY_LABELS) as (keyof typeof EXPIRY_LABELS)[]).map((e) => (
            <option key={e} value={e}>
              {EXPIRY_LABELS[e]}
            </option>
          ))}
        </select>
        {fields.expires_in_days.errors?.length ? (
          <p className="field-error" role="alert">
            {fields.expires_in_days.errors[0]}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        Create token
      </button>
      <Status outcome={outcome?.token ? undefined : outcome} testId="tokens" />
    </Form>
  );
}
