// A tiny levelled logger on stderr; one line per event. Text by default; with LOG_FORMAT=json
// one JSON object per line ({time, level, msg, request_id?, fields?, err?}) for log collectors.
// Inside a request (server/http/request-context.ts) every line carries that request's id.
//
// Bounded (docs/decisions/016-per-user-bounds.md): what players do writes lines, and some carry
// what they wrote, so a line holds at most LINE_CHARS characters, and the lines written share a
// budget of bytes per second (LOG_BYTES_PER_SECOND, with a burst of LOG_BURST_BYTES). Lines past
// the budget are dropped and counted; the next line written says how many went. Keeping the
// log files themselves (rotation, retention) is the supervisor's part (journald, Docker's log
// driver: README, "Running in production").
import { currentRequestId } from "./http/request-context.ts";

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The longest line written; longer messages and fields are cut. */
export const LINE_CHARS = 8192;
/** The bytes of log lines written per second, sustained, and at once. */
export const LOG_BYTES_PER_SECOND = 64 * 1024;
export const LOG_BURST_BYTES = 2 * 1024 * 1024;

/** Where lines go; tests pass their own to read them back. */
export type LogSink = (line: string) => void;

function errorFields(e: Error): Record<string, unknown> {
  return { name: e.name, message: cut(e.message, LINE_CHARS / 4), stack: e.stack === undefined ? undefined : cut(e.stack, LINE_CHARS / 2) };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} characters cut)`;
}

/** Extra data that JSON.stringify cannot write (cycles, BigInt) must not lose the line. */
function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
  } catch {
    return JSON.stringify(String(v));
  }
}

export function jsonLine(level: Exclude<LogLevel, "silent">, msg: string, extra: unknown, requestId: string | undefined, time = new Date()): string {
  const entry: Record<string, unknown> = { time: time.toISOString(), level, msg: cut(msg, LINE_CHARS / 2) };
  if (requestId) entry.request_id = requestId;
  if (extra instanceof Error) entry.err = errorFields(extra);
  else if (extra !== undefined) entry.fields = extra;
  const line = safeJson(entry);
  if (line.length <= LINE_CHARS || entry.fields === undefined) return line;
  // Fields too large for a line: their JSON text, cut, in their place (the line stays JSON).
  return safeJson({ ...entry, fields: cut(safeJson(entry.fields), LINE_CHARS / 4) });
}

export function textLine(level: Exclude<LogLevel, "silent">, msg: string, extra: unknown, requestId: string | undefined, time = new Date()): string {
  const line = `${time.toISOString()} ${level.toUpperCase()}${requestId ? ` [req ${requestId}]` : ""} ${msg}`;
  return cut(extra === undefined ? line : `${line} ${extra instanceof Error ? extra.stack : safeJson(extra)}`, LINE_CHARS);
}

/** The byte budget shared by every line of one logger: a token bucket. */
function budget(perSecond: number, burst: number, clock: () => number) {
  let tokens = burst;
  let at = clock();
  return (bytes: number): boolean => {
    const now = clock();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
    at = now;
    if (tokens < bytes) return false;
    tokens -= bytes;
    return true;
  };
}

export function createLogger(
  level: LogLevel = "info",
  format: LogFormat = "text",
  sink: LogSink = (line) => console.error(line),
  {
    bytesPerSecond = LOG_BYTES_PER_SECOND,
    burstBytes = LOG_BURST_BYTES,
    clock = Date.now,
  }: { bytesPerSecond?: number; burstBytes?: number; clock?: () => number } = {},
) {
  const min = LEVELS.indexOf(level);
  const write = format === "json" ? jsonLine : textLine;
  const take = budget(bytesPerSecond, burstBytes, clock);
  let dropped = 0;
  const at = (l: Exclude<LogLevel, "silent">) => (msg: string, extra?: unknown) => {
    if (LEVELS.indexOf(l) < min) return;
    const line = write(l, msg, extra, currentRequestId());
    if (!take(line.length + 1)) {
      dropped += 1;
      return;
    }
    if (dropped) {
      sink(write("warn", `log: ${dropped} line(s) dropped: more than ${bytesPerSecond} bytes a second were logged`, undefined, undefined));
      dropped = 0;
    }
    sink(line);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
export type Logger = ReturnType<typeof createLogger>;
