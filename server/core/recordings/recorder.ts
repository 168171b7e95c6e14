// Records one shell as an asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/):
// a JSON header line (width, height, timestamp, env), then one JSON array per event:
// [seconds since the start, "o" | "i" | "r" | "m", text]: "o" what the shell printed, "i" what
// the person typed, "r" a resize ("COLSxROWS"), "m" a marker (here: where output stopped being
// recorded, or where recording stopped). The SSH gateway and the browser terminal share one exec
// path (server/gateway/exec-bridge.ts), which feeds every shell through here.
//
// Size bound: a file never grows past `maxBytes` (1 MiB). Output stops being recorded once the
// file is within INPUT_RESERVE of the bound (the row is marked truncated and a marker says so);
// what the person types is kept in that reserve, so "compare" still sees the commands typed after
// a large `cat`. The shell itself is never slowed or stopped by its recording.
//
// What a player can make us keep is bounded too (docs/decisions/016-per-user-
// bounds.md): before a shell is recorded, the user's recorded shells per minute (rate), the free
// space where recordings live (floor) and the user's and the deployment's quotas (quota.ts,
// making room by removing the oldest private recordings) must allow it, or the shell runs
// unrecorded. While it runs, recording stops (the shell does not) if free space falls below the
// floor. When it ends, the commands typed in it are extracted once and stored (commands.ts).
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { DiskSpace } from "#server/disk-space.ts";
import type { RateLimiter } from "#server/core/ratelimit.ts";
import type { RecordedCommands } from "./commands.ts";
import type { RecordingQuotaService } from "./quota.ts";
import { type RecordingStore, userFolder } from "./store.ts";

/** The bound of one recording file, header and events together. */
export const RECORDING_MAX_BYTES = 1024 * 1024;
/** Kept for input and resize events once output has filled the rest. */
export const INPUT_RESERVE = 64 * 1024;
export const TRUNCATED_MARKER = "output truncated: the recording reached its size limit";
export const DISK_LOW_MARKER = "recording stopped: the server's disk is nearly full";

let lastMs = 0;
let sameMs = 0;
/** A UUID in the version 7 layout (the time in ms, a counter, random bits): ids sort in the order
 *  the shells started, so lists by (started_at, id) keep that order within a second, and the
 *  quota removes the oldest first. */
export function timeOrderedId(now = Date.now()): string {
  if (now <= lastMs) sameMs += 1;
  else [lastMs, sameMs] = [now, 0];
  const hex = lastMs.toString(16).padStart(12, "0") + "7" + (sameMs & 0xfff).toString(16).padStart(3, "0");
  const rnd = randomBytes(8).toString("hex");
  const variant = (8 | (parseInt(rnd[0]!, 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${variant}${rnd.slice(1, 4)}-${rnd.slice(4, 16)}`;
}

/** Why a shell was not recorded (counted in /metrics). */
export type RefusedReason = "rate" | "disk" | "quota" | "error";

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
  /** Ends the file, writes the row's end, size and truncation, then extracts and stores the
   *  commands typed (idempotent; never rejects). */
  finish(): Promise<void>;
}

export interface ShellRecorder {
  /** A recording for this shell, or null when it is not to be recorded (rate, disk, quota). */
  begin(start: RecordingStart): Promise<ShellRecording | null>;
}

export interface RecorderDeps {
  db: Db;
  store: Pick<RecordingStore, "root">;
  log: { warn(message: string, extra?: unknown): void };
  limiter: Pick<RateLimiter, "consume">;
  quota: Pick<RecordingQuotaService, "admit" | "limits">;
  disk: Pick<DiskSpace, "check" | "low">;
  commands?: Pick<RecordedCommands, "afterFinish">;
  onRefused?: (reason: RefusedReason) => void;
  maxBytes?: number;
}

export function createRecorder({ db, store, log, limiter, quota, disk, commands, onRefused, maxBytes = RECORDING_MAX_BYTES }: RecorderDeps): ShellRecorder {
  const refuse = (reason: RefusedReason) => {
    onRefused?.(reason);
    return null;
  };

  /** Whether this user's new shell may be recorded; makes room under the quotas when needed. */
  async function admitted(start: RecordingStart): Promise<RefusedReason | null> {
    try {
      await limiter.consume(`recordings:${start.userId}`, { max: quota.limits.perMinute, windowSeconds: 60 });
    } catch {
      return "rate";
    }
    if (!(await disk.check())) return "disk";
    if (!(await quota.admit(start.userId, start.deploymentId))) return "quota";
    return null;
  }

  return {
    async begin(start) {
      let refused: RefusedReason | null;
      try {
        refused = await admitted(start);
      } catch (e) {
        log.warn(`recording: admission failed: ${(e as Error).message}`);
        refused = "error";
      }
      if (refused) return refuse(refused);

      const id = timeOrderedId();
      const path = join(userFolder(start.userId), `${id}.cast`);
      const full = join(store.root, path);
      let file: WriteStream;
      try {
        mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
        file = createWriteStream(full, { flags: "wx", mode: 0o600 });
      } catch (e) {
        log.warn(`recording: cannot create ${path}: ${(e as Error).message}`);
        return refuse("error");
      }
      file.on("error", (e) => log.warn(`recording ${id}: ${e.message}`));
      const startedAt = Date.now();
      const t0 = performance.now();
      let bytes = 0;
      let truncated = false;
      let outputOff = false;
      /** Free space fell below the floor: nothing more is written. */
      let stopped = false;
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
      const stamp = () => Math.round((performance.now() - t0) * 1000) / 1e6;
      const event = (kind: string, text: string, limit = maxBytes) => {
        if (finished || stopped || !text) return true;
        if (disk.low()) {
          stopped = true;
          truncated = true;
          write(JSON.stringify([stamp(), "m", DISK_LOW_MARKER]), maxBytes);
          return true;
        }
        return write(JSON.stringify([stamp(), kind, text]), limit);
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

      try {
        await db
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
          .execute();
      } catch (e) {
        log.warn(`recording ${id}: cannot save its row: ${(e as Error).message}`);
        file.destroy();
        await rm(full, { force: true }).catch(() => {});
        return refuse("error");
      }

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
            try {
              await db
                .updateTable("recordings")
                .set({ ended_at: nowSeconds(), bytes, truncated: truncated ? 1 : 0 })
                .where("id", "=", id)
                .execute();
              await commands?.afterFinish(id);
            } catch (e) {
              log.warn(`recording ${id}: cannot save its end: ${(e as Error).message}`);
            }
          })();
          return finished;
        },
      };
    },
  };
}
