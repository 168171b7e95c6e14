// /admin/logs/export: Export Logs. Downloads the audit log's entries (with the Logs tab's
// filters) as JSON lines, streamed from the API as it reads them. Admins only.
import type { Route } from "./+types/admin-logs-export";
import { operations } from "#shared/contract/operations.ts";
import { requireAdmin } from "#app/.server/guards.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { api } = requireAdmin(context, request);
  const url = new URL(request.url);
  const param = (k: string) => url.searchParams.get(k) ?? undefined;
  const res = await api.open(operations.adminExportAudit, {
    query: { action: param("action"), actor: param("actor"), user: param("user"), from: param("from"), to: param("to") },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
    return new Response(typeof body.detail === "string" ? body.detail : "The export failed.", {
      status: res.status,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(res.body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="faultline-audit-${day}.jsonl"`,
      "cache-control": "no-store",
    },
  });
}
