// Users: the accounts (searched by the console's search box, paged), each with its actions
// (verify, make or revoke admin, set plan, reset 2FA for a lost authenticator, disable or
// enable), and Add User, which creates a password account and mails it the verification link.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { AdminUsersPage, AdminUserView } from "#shared/contract/admin.ts";
import { createUserSchema } from "#app/lib/admin-forms.ts";
import { Field } from "#app/components/field.tsx";
import { ActionButton, type AdminOutcome, formatTime, OutcomeLine, Pager } from "./shared.tsx";

const USER_INTENTS = ["verify", "make-admin", "revoke-admin", "set-plan", "reset-2fa", "disable", "enable"] as const;

function AddUser({ outcome }: { outcome?: AdminOutcome }) {
  const [form, fields] = useForm({
    id: "admin-add-user",
    lastResult: outcome?.intent === "create-user" ? outcome.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: createUserSchema }),
    shouldRevalidate: "onBlur",
  });
  const open = outcome?.intent === "create-user" && !outcome.ok;
  return (
    <details className="panel" open={open || undefined}>
      <summary className="btn-primary cursor-pointer list-none" data-testid="add-user">
        Add User
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-3 sm:max-w-md">
        <input type="hidden" name="intent" value="create-user" />
        <Field label="username" errors={fields.username.errors} inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "off" }} />
        <Field label="email" errors={fields.email.errors} inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }} />
        <Field
          label="initial password"
          errors={fields.password.errors}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
        />
        <p className="text-xs text-zinc-600 dark:text-zinc-400">The account starts unverified; a verification link is mailed to the address.</p>
        <div>
          <button type="submit" className="btn-primary">
            Create user
          </button>
        </div>
      </Form>
    </details>
  );
}

function PlanForm({ u, plansEnabled }: { u: AdminUserView; plansEnabled: boolean }) {
  if (!plansEnabled) return null;
  return (
    <ActionButton intent="set-plan" id={u.id} label="set plan">
      <label className="sr-only" htmlFor={`plan-${u.id}`}>
        plan of {u.username}
      </label>
      <select id={`plan-${u.id}`} name="plan" defaultValue={u.plan} className="input w-auto px-1 py-1 text-xs">
        <option value="free">free</option>
        <option value="pro">pro</option>
      </select>
      <label className="sr-only" htmlFor={`until-${u.id}`}>
        pro until (YYYY-MM-DD, empty for no end)
      </label>
      <input id={`until-${u.id}`} name="until" type="date" className="input w-auto px-1 py-1 text-xs" />
    </ActionButton>
  );
}

function UserRow({ u, me, plansEnabled, outcome }: { u: AdminUserView; me: string; plansEnabled: boolean; outcome?: AdminOutcome }) {
  const self = u.username === me;
  const pro = u.plan === "pro" ? (u.plan_until ? `pro until ${formatTime(u.plan_until).slice(0, 10)}` : "pro") : "free";
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid={`user-row-${u.username}`}>
      <td className="py-2 pr-3">
        <span className="font-semibold">{u.username}</span>
        <br />
        <span className="text-xs text-zinc-600 dark:text-zinc-400">{u.email}</span>
      </td>
      <td className="py-2 pr-3 text-xs" data-testid="user-flags">
        {[
          u.is_verified ? "verified" : "unverified",
          u.is_admin ? "admin" : null,
          u.totp_enabled ? "2fa" : null,
          u.disabled ? "disabled" : null,
          u.oauth_provider,
        ]
          .filter(Boolean)
          .join(", ")}
      </td>
      <td className="py-2 pr-3 text-xs" data-testid="user-plan">
        {pro}
      </td>
      <td className="py-2 pr-3 text-xs">{u.active_deployments}</td>
      <td className="py-2 pr-3 text-xs">{formatTime(u.created_at).slice(0, 10)}</td>
      <td className="py-2">
        <div className="flex flex-wrap gap-1">
          {!u.is_verified ? <ActionButton intent="verify" id={u.id} label="verify" /> : null}
          {u.is_admin ? (
            self ? null : (
              <ActionButton intent="revoke-admin" id={u.id} label="revoke admin" />
            )
          ) : (
            <ActionButton intent="make-admin" id={u.id} label="make admin" />
          )}
          <PlanForm u={u} plansEnabled={plansEnabled} />
          <Link to={`/admin?tab=recordings&user=${encodeURIComponent(u.username)}`} className="btn-ghost px-2 py-0.5 text-xs" data-testid="user-recordings">
            recordings
          </Link>
          <Link to={`/admin?tab=logs&user=${encodeURIComponent(u.id)}`} className="btn-ghost px-2 py-0.5 text-xs" data-testid="user-logs">
            logs
          </Link>
          {u.totp_enabled && !self ? <ActionButton intent="reset-2fa" id={u.id} label="reset 2FA" danger /> : null}
          {self ? null : u.disabled ? (
            <ActionButton intent="enable" id={u.id} label="enable" />
          ) : (
            <ActionButton intent="disable" id={u.id} label="disable" danger />
          )}
        </div>
        <div className="mt-1">
          <OutcomeLine outcome={outcome} intents={USER_INTENTS} id={u.id} />
        </div>
      </td>
    </tr>
  );
}

export function UsersTab({
  page,
  me,
  params,
  outcome,
}: {
  page: (AdminUsersPage & { plans_enabled?: boolean }) | null;
  me: string;
  params: URLSearchParams;
  outcome?: AdminOutcome;
}) {
  return (
    <div className="space-y-4">
      <OutcomeLine outcome={outcome} intents={["create-user"]} />
      <AddUser outcome={outcome} />
      {!page ? (
        <p className="alert-error">The users could not be read.</p>
      ) : (
        <section className="panel overflow-x-auto" aria-label="Users">
          <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="users-total">
            {page.total} user{page.total === 1 ? "" : "s"}
            {params.get("q") ? ` matching "${params.get("q")}"` : ""}
          </p>
          {page.plans_enabled === false ? <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">Plans are not available on this installation.</p> : null}
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="py-1 pr-3">user</th>
                <th className="py-1 pr-3">state</th>
                <th className="py-1 pr-3">plan</th>
                <th className="py-1 pr-3">running</th>
                <th className="py-1 pr-3">joined</th>
                <th className="py-1">actions</th>
              </tr>
            </thead>
            <tbody>
              {page.users.map((u) => (
                <UserRow key={u.id} u={u} me={me} plansEnabled={page.plans_enabled !== false} outcome={outcome} />
              ))}
            </tbody>
          </table>
          <div className="mt-3">
            <Pager page={page.page} pages={page.pages} params={params} />
          </div>
        </section>
      )}
    </div>
  );
}
