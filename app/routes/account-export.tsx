// /profile/export: "Export my data" as a JSON download (a resource route: no page). The API
// assembles it (server/core/accounts/export.ts); this passes it on with its file name.
import type { Route } from "./+types/account-export";
import { requireUser } from "#app/.server/guards.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { api } = requireUser(context, request);
  const res = await api.exportAccount();
  if (!res.ok) throw new Response(res.detail || "Failed to export your data", { status: res.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(JSON.stringify(res.data, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="faultline-${res.data.profile.username}.json"`,
      "cache-control": "no-store",
    },
  });
}
