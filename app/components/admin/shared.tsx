// What the admin console's parts share: the tabs, the action's outcome, and the small forms that
// post one intent (work without JavaScript: a plain POST that renders the page again).
import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { ReloadReport } from "#shared/contract/admin.ts";

export const ADMIN_TABS = ["users", "challenges", "system", "logs", "recordings"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];
export const TAB_LABELS: Record<AdminTab, string> = { users: "Users", challenges: "Challenges", system: "System", logs: "Logs", recordings: "Recordings" };

export const ADMIN_INTENTS = [
  "create-user",
  "verify",
  "make-admin",
  "revoke-admin",
  "set-plan",
  "disable",
  "enable",
  "reset-2fa",
  "hide",
  "show",
  "reload",
  "save-settings",
] as const;
export type AdminIntent = (typeof ADMIN_INTENTS)[number];

/** What the admin action answers. */
export interface AdminOutcome {
  intent: AdminIntent;
  /** The user or challenge acted on. */
  id?: string;
  ok?: string;
  error?: string;
  reply?: SubmissionResult<string[]>;
  report?: ReloadReport;
}

export function AdminTabs({ current }: { current: AdminTab }) {
  return (
    <nav aria-label="Admin" className="flex gap-1 overflow-x-auto border-b border-zinc-300 dark:border-zinc-800">
      {ADMIN_TABS.map((tab) => {
        const active = tab === current;
        return (
          <Link
            key={tab}
            to={`?tab=${tab}`}
            aria-current={active ? "page" : undefined}
            data-testid={`admin-tab-${tab}`}
            className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm no-underline ${
              active
                ? "border-emerald-600 font-bold text-emerald-700 dark:border-term-green dark:text-term-green"
                : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            }`}
          >
            {TAB_LABELS[tab]}
          </Link>
        );
      })}
    </nav>
  );
}

/** A one-button form posting `intent` for `id` (plus any extra fields given as children). */
export function ActionButton({
  intent,
  id,
  label,
  danger,
  children,
}: {
  intent: AdminIntent;
  id?: string;
  label: string;
  danger?: boolean;
  children?: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === (id ?? null);
  return (
    <Form method="post" className="inline-flex items-center gap-1">
      <input type="hidden" name="intent" value={intent} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {children}
      <button type="submit" className={`${danger ? "btn-danger" : "btn-ghost"} px-2 py-1 text-xs`} disabled={busy} data-testid={`${intent}-${id ?? "all"}`}>
        {label}
      </button>
    </Form>
  );
}

/** The outcome line of an action, where it belongs. */
export function OutcomeLine({ outcome, intents, id }: { outcome?: AdminOutcome; intents: readonly AdminIntent[]; id?: string }) {
  if (!outcome || !intents.includes(outcome.intent) || (id !== undefined && outcome.id !== id)) return null;
  if (outcome.error) {
    return (
      <p className="alert-error" role="alert" data-testid="admin-error">
        {outcome.error}
      </p>
    );
  }
  if (outcome.ok) {
    return (
      <p className="alert-ok" role="status" data-testid="admin-ok">
        {outcome.ok}
      </p>
    );
  }
  return null;
}

/** Previous / next page links that keep the rest of the query. */
export function Pager({ page, pages, params }: { page: number; pages: number; params: URLSearchParams }) {
  if (pages <= 1) return null;
  const to = (p: number) => {
    const q = new URLSearchParams(params);
    q.set("page", String(p));
    return `?${q.toString()}`;
  };
  return (
    <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
      {page > 1 ? <Link to={to(page - 1)}>← prev</Link> : <span className="text-zinc-500">← prev</span>}
      <span data-testid="admin-page">
        page {page} of {pages}
      </span>
      {page < pages ? <Link to={to(page + 1)}>next →</Link> : <span className="text-zinc-500">next →</span>}
    </nav>
  );
}

export const formatTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";
