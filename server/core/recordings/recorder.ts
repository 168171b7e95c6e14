// Records one shell as an asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/):
// a JSON header line (width, height, timestamp, env), then one JSON array per event:
// [seconds since the start, "o" | "i" | "r" | "m", text]: "o" what the shell printed, "i" what
// the person typed, "r" a resize ("COLSxROWS"), "m" a marker (here: where output stopped being
// recorded). The SSH gateway and the browser terminal share one exec path
// (server/gateway/exec-bridge.ts), which feeds every shell through here.
//
// Size bound: a file never grows past `maxBytes` (1 MiB). Output stops being recorded once the
// file is within INPUT_RESERVE of the bound (the row is marked truncated and a marker says so);
// what the person types is kept in that reserve, so "compare" still sees the commands typed after
// a large `cat`. The shell itself is never slowed or stopped by its recording.
import { randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { Db } from "../../db/index.ts";
import { nowSeconds } from "../../db/index.ts";
import { userFolder } from "./store.ts";

/** The bound of one recording file, header and events together. */
export const RECORDING_MAX_BYTES = 1024 * 1024;
/** Kept for input and resize events once output has filled the rest. */
export const INPUT_RESERVE = 64 * 1024;
export const TRUNCATED_MARKER = "output truncated: the recording reached its size limit";

export interface RecordingStart {
  userId: string;
  deploymentId: string;
  challengeId: string;
  source: "ssh" | "web";
  cols: number;
  rows: number;
  term?: string;
  /** For a command (`ssh host 'cmd'`) rather than a login shell: the command line. */
  command?: string;
}

/** One shell being recorded. Every method is cheap and never throws. */
export interface ShellRecording {
  readonly id: string;
  input(chunk: Buffer | string): void;
  output(chunk: Buffer | string): void;
  resize(cols: number, rows: number): void;
  /** Ends the file and writes the row's end, size and truncation (idempotent). */
  finish(): Promise<void>;
}

export interface ShellRecorder {
  begin(start: RecordingStart): ShellRecording | null;
}

export interface RecorderDeps {
  db: Db;
  dataDir: string;
  log: { warn(message: string, extra?: unknown): void };
  maxBytes?: number;
}

export function createRecorder({ db, dataDir, log, maxBytes = RECORDING_MAX_BYTES }: RecorderDeps): ShellRecorder {
  const base = resolve(dataDir);
  return {
    begin(start) {
      const id = randomUUID();
      const path = join(userFolder(start.userId), `${id}.cast`);
      const full = join(base, path);
      let file: WriteStream;
      try {
        mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
        file = createWriteStream(full, { flags: "wx", mode: 0o600 });
      } catch (e) {
        log.warn(`recording: cannot create ${path}: ${(e as Error).message}`);
        return null;
      }
      file.on("error", (e) => log.warn(`recording ${id}: ${e.message}`));
      const startedAt = Date.now();
      const t0 = performance.now();
      let bytes = 0;
      let truncated = false;
      let outputOff = false;
      let finished: Promise<void> | null = null;
      const out = new StringDecoder("utf8");
      const inp = new StringDecoder("utf8");

      const write = (line: string, limit: number): boolean => {
        const size = Buffer.byteLength(line) + 1;
        if (bytes + size > limit) return false;
        bytes += size;
        file.write(line + "\n");
        return true;
      };
      const event = (kind: string, text: string, limit = maxBytes) => {
        if (finished || !text) return true;
        const t = Math.round((performance.now() - t0) * 1000) / 1e6;
        return write(JSON.stringify([t, kind, text]), limit);
      };

      const header: Record<string, unknown> = {
        version: 2,
        width: start.cols,
        height: start.rows,
        timestamp: Math.floor(startedAt / 1000),
        env: { TERM: start.term ?? "xterm-256color", SHELL: "/bin/bash" },
        title: `${start.challengeId} (${start.source})`,
      };
      if (start.command !== undefined) header.command = start.command.slice(0, 4096);
      write(JSON.stringify(header), maxBytes);

      const inserted = db
        .insertInto("recordings")
        .values({
          id,
          user_id: start.userId,
          deployment_id: start.deploymentId,
          challenge_id: start.challengeId,
          source: start.source,
          started_at: Math.floor(startedAt / 1000),
          ended_at: null,
          bytes,
          truncated: 0,
          path,
        })
        .execute()
        .then(() => true)
        .catch((e: Error) => {
          log.warn(`recording ${id}: cannot save its row: ${e.message}`);
          return false;
        });

      return {
        id,
        input(chunk) {
          if (finished) return;
          const text = typeof chunk === "string" ? chunk : inp.write(chunk);
          if (!event("i", text)) truncated = true;
        },
        output(chunk) {
          if (finished || outputOff) return;
          const text = typeof chunk === "string" ? chunk : out.write(chunk);
          if (!event("o", text, maxBytes - INPUT_RESERVE)) {
            outputOff = true;
            truncated = true;
            event("m", TRUNCATED_MARKER);
          }
        },
        resize(cols, rows) {
          if (!event("r", `${cols}x${rows}`)) truncated = true;
        },
        finish() {
          finished ??= (async () => {
            await new Promise<void>((r) => file.end(() => r()));
            if (!(await inserted)) return;
            await db
              .updateTable("recordings")
              .set({ ended_at: nowSeconds(), bytes, truncated: truncated ? 1 : 0 })
              .where("id", "=", id)
              .execute()
              .catch((e: Error) => log.warn(`recording ${id}: cannot save its end: ${e.message}`));
          })();
          return finished;
        },
      };
    },
  };
}
