// /admin: the admin console (admins only; others go to /unauthorized). Tabs Users, Challenges,
// System, Logs and Recordings (abuse review: recorded shells, each opening audited) as ?tab=...;
// the stat cards on every tab; the search box filters the users
// (name or e-mail) and the challenges (title or id). Every change is a plain POST form with a
// hidden `intent`, handled by one small function each, calling the admin API with the admin's
// token; without JavaScript the post renders this page again with the outcome.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useLocation } from "react-router";
import type { Route } from "./+types/admin";
import type { ApiCalls } from "#app/.server/api-client.ts";
import { requireAdmin } from "#app/.server/guards.ts";
import { ChallengesTab } from "#app/components/admin/challenges-tab.tsx";
import { LogsTab } from "#app/components/admin/logs-tab.tsx";
import { RecordingsTab } from "#app/components/admin/recordings-tab.tsx";
import { ADMIN_INTENTS, ADMIN_TABS, type AdminIntent, type AdminOutcome, type AdminTab, AdminTabs } from "#app/components/admin/shared.tsx";
import { StatCards } from "#app/components/admin/stat-cards.tsx";
import { SystemTab } from "#app/components/admin/system-tab.tsx";
import { UsersTab } from "#app/components/admin/users-tab.tsx";
import { createUserSchema, endOfDay, idField, planFormSchema, settingsFormSchema } from "#app/lib/admin-forms.ts";

export function meta() {
  return [{ title: "admin | faultline" }];
}

const tabOf = (url: URL): AdminTab => {
  const tab = url.searchParams.get("tab");
  return (ADMIN_TABS as readonly string[]).includes(tab ?? "") ? (tab as AdminTab) : "users";
};

const ok = <T,>(r: { ok: true; data: T } | { ok: false }) => (r.ok ? r.data : null);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, api } = requireAdmin(context, request);
  const url = new URL(request.url);
  const tab = tabOf(url);
  const q = url.searchParams.get("q")?.trim() ?? "";
  const param = (k: string) => url.searchParams.get(k) ?? undefined;
  const recordingsUser = url.searchParams.get("user")?.trim() ?? "";
  const [system, users, challenges, settings, logs, recordings] = await Promise.all([
    api.adminGetSystem(),
    tab === "users" ? api.adminListUsers({ query: { search: q, page: param("page") } }) : null,
    tab === "challenges" ? api.adminListChallenges() : null,
    tab === "system" ? api.adminGetSettings() : null,
    tab === "logs"
      ? api.adminListAudit({
          query: { action: param("action"), actor: param("actor"), user: param("user"), from: param("from"), to: param("to"), page: param("page") },
        })
      : null,
    tab === "recordings" ? api.adminListRecordings({ query: { username: recordingsUser || undefined, limit: 100 } }) : null,
  ]);
  const needle = q.toLowerCase();
  const listed = challenges ? (ok(challenges)?.challenges ?? null) : null;
  return {
    tab,
    q,
    me: user.username,
    system: ok(system),
    users: users ? ok(users) : null,
    challenges: listed && needle ? listed.filter((c) => c.id.includes(needle) || c.title.toLowerCase().includes(needle)) : listed,
    settings: settings ? ok(settings) : null,
    logs: logs ? ok(logs) : null,
    logsError: logs && !logs.ok ? logs.detail : null,
    recordingsUser,
    recordings: recordings?.ok ? recordings.data.recordings : null,
    recordingsError: recordings && !recordings.ok ? recordings.detail || "Could not list the recordings" : null,
  };
}

// ---- action: one function per intent --------------------------------------------------------

const answer = (outcome: AdminOutcome, status = 200) => data(outcome, { status });
const isIntent = (v: unknown): v is AdminIntent => typeof v === "string" && (ADMIN_INTENTS as readonly string[]).includes(v);

async function createUser(api: ApiCalls, form: FormData) {
  const intent = "create-user";
  const submission = parseWithZod(form, { schema: createUserSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply({ hideFields: ["password"] }) }, 400);
  const res = await api.adminCreateUser({ body: submission.value });
  if (!res.ok) return answer({ intent, reply: submission.reply({ hideFields: ["password"] }), error: res.detail || "Could not create the user" }, res.status);
  return answer({
    intent,
    reply: submission.reply({ resetForm: true }),
    ok: `Created ${res.data.username}; a verification link was mailed to ${res.data.email}.`,
  });
}

async function saveSettings(api: ApiCalls, form: FormData) {
  const intent = "save-settings";
  const submission = parseWithZod(form, { schema: settingsFormSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  const v = submission.value;
  const res = await api.adminUpdateSettings({ body: { ...v, maintenance_mode: v.maintenance_mode === true } });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: res.detail || "Could not save the settings" }, res.status);
  return answer({ intent, reply: submission.reply(), ok: "Settings saved. New deployments use them." });
}

/** The intents that act on one user or challenge by id. */
async function byId(api: ApiCalls, intent: AdminIntent, form: FormData) {
  const parsed = idField.safeParse({ id: form.get("id") ?? undefined });
  if (!parsed.success) return answer({ intent, error: parsed.error.issues[0]?.message ?? "Missing id" }, 400);
  const { id } = parsed.data;
  const done = (res: { ok: true } | { ok: false; status: number; detail: string }, message: string) =>
    res.ok ? answer({ intent, id, ok: message }) : answer({ intent, id, error: res.detail || "That did not work" }, res.status);
  switch (intent) {
    case "verify":
      return done(await api.adminVerifyUser({ params: { id } }), "Verified.");
    case "make-admin":
      return done(await api.adminSetAdmin({ params: { id }, body: { is_admin: true } }), "Now an admin.");
    case "revoke-admin":
      return done(await api.adminSetAdmin({ params: { id }, body: { is_admin: false } }), "No longer an admin.");
    case "disable":
      return done(await api.adminDisableUser({ params: { id } }), "Disabled: signed out everywhere, deployments terminated.");
    case "enable":
      return done(await api.adminEnableUser({ params: { id } }), "Enabled: the account can sign in again.");
    case "reset-2fa":
      return done(await api.adminResetTwoFactor({ params: { id } }), "2FA reset: the user signs in with the password alone and was mailed.");
    case "hide":
      return done(await api.adminSetChallengeVisibility({ params: { id }, body: { hidden: true } }), "Hidden from the catalogue.");
    case "show":
      return done(await api.adminSetChallengeVisibility({ params: { id }, body: { hidden: false } }), "Listed in the catalogue again.");
    case "set-plan": {
      const plan = planFormSchema.safeParse({ plan: form.get("plan") ?? undefined, until: form.get("until") || undefined });
      if (!plan.success) return answer({ intent, id, error: plan.error.issues[0]?.message ?? "Pick a plan" }, 400);
      const until = plan.data.plan === "pro" ? endOfDay(plan.data.until) : null;
      const res = await api.adminSetPlan({
        params: { id },
        body: { plan: plan.data.plan, plan_until: until === null ? null : new Date(until * 1000).toISOString() },
      });
      return done(res, `Plan set to ${plan.data.plan}.`);
    }
    default:
      return answer({ intent, error: "Unknown action" }, 400);
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireAdmin(context, request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (!isIntent(intent)) return answer({ intent: "verify", error: "Unknown action" }, 400);
  if (intent === "create-user") return createUser(api, form);
  if (intent === "save-settings") return saveSettings(api, form);
  if (intent === "reload") {
    const res = await api.adminReloadChallenges();
    if (!res.ok) return answer({ intent, error: res.detail || "The reload failed" }, res.status);
    const n = res.data.problems.length;
    return answer({ intent, report: res.data, ok: n ? `Reloaded with ${n} problem${n === 1 ? "" : "s"}.` : "Reloaded." });
  }
  return byId(api, intent, form);
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, q, me, system } = loaderData;
  const outcome = actionData as AdminOutcome | undefined;
  const params = new URLSearchParams();
  params.set("tab", tab);
  if (q) params.set("q", q);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="prompt text-2xl font-bold">sudo admin</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Users, challenges, the host and the audit log, live.</p>
        </div>
        {tab === "users" || tab === "challenges" ? (
          <Form method="get" role="search" className="flex gap-2">
            <input type="hidden" name="tab" value={tab} />
            <label htmlFor="admin-search" className="sr-only">
              search
            </label>
            <input
              id="admin-search"
              name="q"
              type="search"
              defaultValue={q}
              placeholder={tab === "users" ? "search users..." : "search challenges..."}
              className="input w-56"
            />
            <button type="submit" className="btn-ghost">
              search
            </button>
          </Form>
        ) : null}
      </header>
      <StatCards figures={system} />
      <AdminTabs current={tab} />
      {tab === "users" ? <UsersTab page={loaderData.users} me={me} params={params} outcome={outcome} /> : null}
      {tab === "challenges" ? <ChallengesTab challenges={loaderData.challenges} outcome={outcome} /> : null}
      {tab === "system" ? <SystemTab settings={loaderData.settings} outcome={outcome} /> : null}
      {tab === "logs" ? <LogsRoute page={loaderData.logs} error={loaderData.logsError} /> : null}
      {tab === "recordings" ? <RecordingsTab recordings={loaderData.recordings} user={loaderData.recordingsUser} error={loaderData.recordingsError} /> : null}
    </div>
  );
}

/** The logs tab with the filters of the current address (paging keeps them). */
function LogsRoute({ page, error }: { page: Parameters<typeof LogsTab>[0]["page"]; error: string | null }) {
  if (error)
    return (
      <p className="alert-error" role="alert">
        {error}
      </p>
    );
  const search = useLocation().search;
  return <LogsTab page={page} params={new URLSearchParams(search)} />;
}
