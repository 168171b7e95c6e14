// Logs: the audit log, filtered by action, actor (a username), user (an account's id: what it did
// and what was done to it) and date range (a GET form: the filters are in the address, so a
// filtered page can be bookmarked), paged, and Export Logs, which downloads the filtered entries
// as JSON lines. Entries hold ids; the names shown are the accounts' names now (a deleted
// account has none).
import { Form } from "react-router";
import type { AuditEntry, AuditPage } from "#shared/contract/admin.ts";
import { formatTime, Pager } from "./shared.tsx";

/** Who acted: the account's name, or what kind of nobody it was. */
function actorLabel(e: AuditEntry): string {
  if (e.actor) return e.actor;
  if (e.actor_id) return "deleted account";
  return e.action === "auth.login_failed" ? "unknown name" : "system";
}

function targetLabel(e: AuditEntry): string {
  if (e.target_type === "user" && e.target === null) return "deleted account";
  return e.target ?? "";
}

export function LogsTab({ page, params }: { page: AuditPage | null; params: URLSearchParams }) {
  const exportQuery = new URLSearchParams(params);
  exportQuery.delete("tab");
  exportQuery.delete("page");
  exportQuery.delete("q");
  const value = (k: string) => params.get(k) ?? "";
  if (!page) return <p className="alert-error">The audit log could not be read.</p>;
  return (
    <div className="space-y-4">
      <Form method="get" className="panel grid gap-3 sm:grid-cols-6 sm:items-end" aria-label="Filter the audit log">
        <input type="hidden" name="tab" value="logs" />
        <div>
          <label className="label" htmlFor="log-action">
            action
          </label>
          <select id="log-action" name="action" defaultValue={value("action")} className="input">
            <option value="">any</option>
            {page.actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="log-actor">
            actor
          </label>
          <input id="log-actor" name="actor" defaultValue={value("actor")} className="input" placeholder="username" />
        </div>
        <div>
          <label className="label" htmlFor="log-user">
            user id
          </label>
          <input id="log-user" name="user" defaultValue={value("user")} className="input" placeholder="by or about" />
        </div>
        <div>
          <label className="label" htmlFor="log-from">
            from
          </label>
          <input id="log-from" name="from" type="date" defaultValue={value("from")} className="input" />
        </div>
        <div>
          <label className="label" htmlFor="log-to">
            to
          </label>
          <input id="log-to" name="to" type="date" defaultValue={value("to")} className="input" />
        </div>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          <a className="btn-ghost" href={`/admin/logs/export${exportQuery.size ? `?${exportQuery}` : ""}`} download data-testid="export-logs">
            Export Logs
          </a>
        </div>
      </Form>
      <section className="panel overflow-x-auto" aria-label="Audit log" tabIndex={0}>
        <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="logs-total">
          {page.total} entr{page.total === 1 ? "y" : "ies"}
        </p>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-zinc-600 dark:text-zinc-400">
            <tr>
              <th className="py-1 pr-3">time</th>
              <th className="py-1 pr-3">actor</th>
              <th className="py-1 pr-3">action</th>
              <th className="py-1 pr-3">target</th>
              <th className="py-1 pr-3">ip</th>
              <th className="py-1">detail</th>
            </tr>
          </thead>
          <tbody>
            {page.entries.map((e) => (
              <tr key={e.id} className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid="log-row">
                <td className="whitespace-nowrap py-1 pr-3 text-xs">{formatTime(e.at)}</td>
                <td className="py-1 pr-3">{actorLabel(e)}</td>
                <td className="py-1 pr-3 font-mono text-xs" data-testid="log-action">
                  {e.action}
                </td>
                <td className="py-1 pr-3 text-xs" data-testid="log-target">
                  {targetLabel(e)}
                </td>
                <td className="py-1 pr-3 text-xs">{e.ip ?? ""}</td>
                <td className="break-all py-1 font-mono text-xs">{e.detail ? JSON.stringify(e.detail) : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-3">
          <Pager page={page.page} pages={page.pages} params={params} />
        </div>
      </section>
    </div>
  );
}
