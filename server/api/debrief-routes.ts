// Costed hints, the debrief after solving, recordings and their replay (docs/api.md,
// "Hints, debrief and recordings"): transport only, the rules are server/core/hints.ts,
// server/core/debrief.ts and server/core/recordings/access.ts. Registered before the catalogue's
// /challenges/:id and the profiles' /users/:username, which match fewer segments anyway.
import { operations } from "#shared/contract/operations.ts";
import type { Debriefs } from "#server/core/debrief.ts";
import type { Hints } from "#server/core/hints.ts";
import type { RecordingAccess } from "#server/core/recordings/access.ts";
import type { BaseCtx, Router } from "./router.ts";

export interface DebriefRoutesDeps {
  hints: Hints;
  debriefs: Debriefs;
  recordings: RecordingAccess;
  userId(c: BaseCtx): Promise<string>;
  /** The caller when an admin (403 otherwise; 401 without credentials). */
  adminId(c: BaseCtx): Promise<string>;
}

/** An asciicast v2 file: never cached by a shared cache, never sniffed as something else. */
const cast = (text: string) =>
  new Response(text, {
    headers: { "content-type": "application/x-asciicast; charset=utf-8", "cache-control": "private, no-store", "x-content-type-options": "nosniff" },
  });

export function debriefRoutes(r: Router, { hints, debriefs, recordings, userId, adminId }: DebriefRoutesDeps) {
  const optionalUser = async (c: BaseCtx) => (c.request.headers.has("authorization") ? userId(c) : null);

  r.handle(operations.getHints, async (c) => hints.state(await userId(c), c.params.id));
  r.handle(operations.revealHint, async (c) => hints.reveal(await userId(c), c.params.id, c.body.number));
  r.handle(operations.getDebrief, async (c) => debriefs.get(await userId(c), c.params.id));
  r.handle(operations.listChallengeRecordings, async (c) => ({ recordings: await recordings.mine(await userId(c), c.params.id) }));
  r.handle(operations.listMyRecordings, async (c) => ({ recordings: await recordings.mineAll(await userId(c)) }));
  r.handle(operations.getRecording, async (c) => recordings.get(await userId(c), c.params.id));
  r.handle(operations.getRecordingCast, async (c) => cast(await recordings.content(await optionalUser(c), c.params.id)));
  r.handle(operations.setRecordingPublished, async (c) => recordings.setPublished(await userId(c), c.params.id, c.body.published));
  r.handle(operations.listPublishedSolutions, async (c) => ({ solutions: await recordings.published(c.params.username) }));
  r.handle(operations.adminListRecordings, async (c) => {
    await adminId(c);
    return { recordings: await recordings.adminList(c.query) };
  });
  r.handle(operations.adminGetRecordingCast, async (c) => cast(await recordings.adminContent(await adminId(c), c.params.id)));
}
