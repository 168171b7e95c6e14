// The commands typed in each recorded shell, computed once and stored:
// when a shell ends, its recording goes to the extractor (a worker thread with a time budget,
// extractor.ts) and the list lands in the row (`commands`, `commands_cut`; migration 0016).
// Readers (the debrief) take the stored list. Two cases compute on read, still off the main
// thread: a recording of an older deployment that was never extracted (then stored, once), and a
// shell still open (the player solved with it open): its list so far, kept for LIVE_REUSE_MS and
// for as long as its file does not grow, never stored.
import { stat } from "node:fs/promises";
import type { Db } from "#server/db/index.ts";
import type { Extracted } from "./compare.ts";
import type { CommandExtractor } from "./extractor.ts";
import type { RecordingRow, RecordingStore } from "./store.ts";

/** At most this many commands in one debrief, over all its shells. */
export const DEBRIEF_COMMANDS = 2000;
/** An open shell's list is computed again at most this often. */
export const LIVE_REUSE_MS = 10_000;
/** Open shells' lists kept at once. */
const LIVE_KEPT = 256;
/** Open shells one read computes at most (a player may hold dozens open: the gateway allows 8
 *  connections of 4 channels); the others wait for their end, and the list says it is cut. */
export const LIVE_PER_READ = 4;

/** A stored list as the row holds it; anything else (a hand-edited row) counts as not done. */
function storedList(row: Pick<RecordingRow, "commands" | "commands_cut">): Extracted | null {
  if (row.commands === null) return null;
  try {
    const list = JSON.parse(row.commands) as unknown;
    if (Array.isArray(list) && list.every((c) => typeof c === "string")) return { commands: list, cut: Number(row.commands_cut) === 1 };
  } catch {}
  return null;
}

export function createRecordedCommands({ db, store, extractor }: { db: Db; store: RecordingStore; extractor: CommandExtractor }) {
  /** One extraction per recording at a time, however many readers ask. */
  const inFlight = new Map<string, Promise<Extracted | null>>();
  const live = new Map<string, { size: number; at: number; result: Extracted }>();

  const once = (id: string, run: () => Promise<Extracted | null>) => {
    let p = inFlight.get(id);
    if (!p) {
      p = run().finally(() => inFlight.delete(id));
      inFlight.set(id, p);
    }
    return p;
  };

  /** An ended shell's list: extracted now and stored, unless another reader stored it first. */
  function settle(row: RecordingRow): Promise<Extracted | null> {
    return once(row.id, async () => {
      const result = await extractor.extract(store.fileOf(row));
      if (result) {
        await db
          .updateTable("recordings")
          .set({ commands: JSON.stringify(result.commands), commands_cut: result.cut ? 1 : 0 })
          .where("id", "=", row.id)
          .where("commands", "is", null)
          .execute();
      }
      return result;
    });
  }

  /** An open shell's list so far (not stored: the shell goes on). */
  async function sofar(row: RecordingRow): Promise<Extracted | null> {
    const size = await stat(store.fileOf(row)).then(
      (s) => s.size,
      () => -1,
    );
    const kept = live.get(row.id);
    if (kept && (kept.size === size || Date.now() - kept.at < LIVE_REUSE_MS)) return kept.result;
    const result = await once(`live:${row.id}`, () => extractor.extract(store.fileOf(row)));
    if (result) {
      live.delete(row.id);
      live.set(row.id, { size, at: Date.now(), result });
      if (live.size > LIVE_KEPT) live.delete(live.keys().next().value!);
    }
    return result ?? kept?.result ?? null;
  }

  return {
    /** After a shell ended (its row closed): extract and store its commands. */
    async afterFinish(id: string): Promise<void> {
      const row = await store.get(id);
      if (row && row.commands === null && row.ended_at !== null) await settle(row);
    },
    /** The commands typed in these shells, in order, at most DEBRIEF_COMMANDS; `cut` when some
     *  list stopped short or could not be had now. */
    async of(rows: RecordingRow[]): Promise<Extracted> {
      const commands: string[] = [];
      let cut = false;
      let open = 0;
      for (const row of rows) {
        if (commands.length >= DEBRIEF_COMMANDS) {
          cut = true;
          break;
        }
        let list = storedList(row);
        if (!list && row.ended_at !== null) list = await settle(row);
        else if (!list && ++open <= LIVE_PER_READ) list = await sofar(row);
        if (!list) {
          cut = true;
          continue;
        }
        cut ||= list.cut;
        const room = DEBRIEF_COMMANDS - commands.length;
        if (list.commands.length > room) cut = true;
        // One at a time: spreading a long list into push() overflows the call stack.
        for (const c of list.commands.slice(0, room)) commands.push(c);
      }
      return { commands, cut };
    },
    /** The worker's round: recordings that ended without their list (older deployments, a
     *  process that died), oldest first, at most `limit`. Returns how many were done. */
    async backfill(limit = 200): Promise<number> {
      const rows = await db
        .selectFrom("recordings")
        .selectAll()
        .where("commands", "is", null)
        .where("ended_at", "is not", null)
        .orderBy("started_at", "asc")
        .limit(limit)
        .execute();
      let done = 0;
      for (const row of rows) if (await settle(row)) done += 1;
      return done;
    },
  };
}
export type RecordedCommands = ReturnType<typeof createRecordedCommands>;
