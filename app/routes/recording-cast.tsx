// /recordings/:id/cast: a recording's asciicast file for the replay (asciinema-player) or a
// download. The signed-in owner gets theirs; anyone gets a published one; everyone else a 404
// (the API decides: server/core/recordings/access.ts). /admin/recordings/:id/cast is the admin
// console's audited read of any recording (admin-recording-cast.tsx).
import type { Route } from "./+types/recording-cast";
import { castResponse, RECORDING_ID } from "#app/.server/cast-response.ts";
import { getWeb } from "#app/.server/guards.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  const web = getWeb(context);
  if (!RECORDING_ID.test(params.id)) return new Response("Recording not found", { status: 404 });
  return castResponse(await web.api.as(web.token ?? undefined).getRecordingCast({ params: { id: params.id } }), params.id);
}
