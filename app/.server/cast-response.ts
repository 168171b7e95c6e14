// A recording's asciicast file as the web hands it on (the replay's source, or a download):
// never cached by a shared cache; a refusal from the API stays a plain-text 404/401/403.
import type { ApiResult } from "./api-client.ts";

export const RECORDING_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function castResponse(res: ApiResult<string>, id: string): Response {
  if (!res.ok) return new Response(res.detail || "Recording not found", { status: res.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(res.data, {
    headers: {
      "content-type": "application/x-asciicast; charset=utf-8",
      "content-disposition": `inline; filename="faultline-${id}.cast"`,
      "cache-control": "private, no-store",
    },
  });
}
