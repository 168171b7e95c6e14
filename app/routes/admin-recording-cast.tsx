// /admin/recordings/:id/cast: an admin opens any recording (abuse review). Every read is written
// to the audit log by the API (admin.recording_view).
import type { Route } from "./+types/admin-recording-cast";
import { castResponse, RECORDING_ID } from "#app/.server/cast-response.ts";
import { requireAdmin } from "#app/.server/guards.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { api } = requireAdmin(context, request);
  if (!RECORDING_ID.test(params.id)) return new Response("Recording not found", { status: 404 });
  return castResponse(await api.adminGetRecordingCast({ params: { id: params.id } }), params.id);
}
