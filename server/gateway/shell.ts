// One shell, whoever carries it: an SSH session channel (channels.ts) or the browser terminal's
// WebSocket (server/terminal/). Both hand exec-bridge.ts a ShellChannel and a ShellState, and go
// through the functions here for what they have in common: resize (coalesced, rate-limited),
// signals (a short list, rate-limited), hanging up (SIGHUP, then SIGKILL) and ending with a
// message ("This faultline deployment has ended...").
import type { Duplex, Writable } from "node:stream";
import type { ShellRecording } from "#server/core/recordings/recorder.ts";
import type { ExecSession } from "#server/runtime/types.ts";
import { clampSize, Coalescer, TokenBucket } from "./limits.ts";
import type { GatewayLogger } from "./types.ts";

/** What a shell's person is reached through: their input to read, the process's output to write,
 *  a separate error stream (an SSH channel's extended data; the browser's is the same stream), and
 *  the exit status, sent before the end, and closing at once. ssh2's ServerChannel is one. */
export type ShellChannel = Duplex & { stderr: Writable; exit(code: number): void; close(): void };

/** One shell: what the client asked for before it starts, then its exec. */
export interface ShellState {
  pty?: { term: string; cols: number; rows: number };
  env: Record<string, string>;
  signals: TokenBucket;
  resizer: Coalescer<{ cols: number; rows: number }>;
  channel?: ShellChannel;
  exec?: ExecSession;
  kind?: "shell" | "exec" | "sftp";
  ended: boolean;
  /** The asciicast being written for it (server/core/recordings/recorder.ts), if any. */
  recording?: ShellRecording | null;
}

/** `signal` requests per shell: a burst of 8, then 2 a second (each one walks the container's
 *  processes). Resizes: the last size within 100 ms wins, at most 4 at once then 4 a second
 *  reach the engine (each is an engine API call). */
const SIGNAL_RATE = { capacity: 8, perSecond: 2 };
const RESIZE_RATE = { capacity: 4, perSecond: 4, coalesceMs: 100 };
const SIGNALS = /^(HUP|INT|QUIT|TERM|KILL|USR1|USR2|ALRM|ABRT|CONT|STOP|TSTP|WINCH)$/;

export function createShellState(log: GatewayLogger): ShellState {
  const s: ShellState = {
    env: {},
    ended: false,
    signals: new TokenBucket(SIGNAL_RATE.capacity, SIGNAL_RATE.perSecond),
    resizer: new Coalescer(
      ({ cols, rows }) => {
        s.recording?.resize(cols, rows);
        s.exec?.resize(cols, rows).catch((e) => log.debug(`shell: resize: ${(e as Error).message}`));
      },
      new TokenBucket(RESIZE_RATE.capacity, RESIZE_RATE.perSecond),
      RESIZE_RATE.coalesceMs,
    ),
  };
  return s;
}

/** A new window size (clamped to 1..1000; nonsense keeps the current size). Before the exec
 *  starts it is only remembered (the bridge starts the exec with s.pty's size). */
export function resizeShell(s: ShellState, cols: number, rows: number) {
  cols = clampSize(cols, s.pty?.cols ?? 80);
  rows = clampSize(rows, s.pty?.rows ?? 24);
  if (s.pty) s.pty = { ...s.pty, cols, rows };
  if (s.exec) s.resizer.push({ cols, rows });
}

/** Sends a signal ("INT", "SIGINT") to the shell's process session; false when refused (not
 *  one of the usual ones, no process yet, or too many). */
export function signalShell(s: ShellState, signal: string, log: GatewayLogger): boolean {
  const name = String(signal).toUpperCase().replace(/^SIG/, "");
  if (!s.exec || !SIGNALS.test(name)) return false;
  if (!s.signals.take()) {
    log.debug(`shell: signal ${name} dropped: too many`);
    return false;
  }
  s.exec.signal(`SIG${name}` as NodeJS.Signals).catch((e) => log.debug(`shell: signal: ${(e as Error).message}`));
  return true;
}

/** Ends an exec like a hung-up terminal: SIGHUP lets shells and editors exit cleanly, then
 *  whatever is left of its process session is killed `killGraceMs` later. */
export function createHangUp(killGraceMs: number, log: GatewayLogger) {
  return function hangUp(exec: ExecSession) {
    exec.signal("SIGHUP").catch(() => {});
    const t = setTimeout(() => exec.signal("SIGKILL").catch((e) => log.debug(`shell: kill: ${(e as Error).message}`)), killGraceMs);
    t.unref();
  };
}

/** Ends a shell from our side (its deployment ended, the server stops): its process is hung up,
 *  the person is told why, and the channel is ended. False when there was no channel to end. */
export function endShell(s: ShellState, message: string, hangUp: (exec: ExecSession) => void): boolean {
  if (s.exec && !s.ended) hangUp(s.exec);
  const channel = s.channel;
  if (!channel) return false;
  s.exec?.stdout.unpipe(channel);
  s.exec?.stderr.unpipe(channel.stderr);
  try {
    if (s.kind !== "sftp") {
      if (s.pty) channel.write(`\r\n${message}\r\n`);
      else channel.stderr.write(`${message}\n`);
    }
    channel.end();
    return true;
  } catch {
    return false; // channel already closing
  }
}
