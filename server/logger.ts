// A tiny levelled logger on stderr; one line per event. Text by default; with LOG_FORMAT=json
// one JSON object per line ({time, level, msg, request_id?, fields?, err?}) for log collectors.
// Inside a request (server/request-context.ts) every line carries that request's id.
import { currentRequestId } from "./request-context.ts";

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where lines go; tests pass their own to read them back. */
export type LogSink = (line: string) => void;

function errorFields(e: Error): Record<string, unknown> {
  return { name: e.name, message: e.message, stack: e.stack };
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
  const entry: Record<string, unknown> = { time: time.toISOString(), level, msg };
  if (requestId) entry.request_id = requestId;
  if (extra instanceof Error) entry.err = errorFields(extra);
  else if (extra !== undefined) entry.fields = extra;
  return safeJson(entry);
}

export function textLine(level: Exclude<LogLevel, "silent">, msg: string, extra: unknown, requestId: string | undefined, time = new Date()): string {
  const line = `${time.toISOString()} ${level.toUpperCase()}${requestId ? ` [req ${requestId}]` : ""} ${msg}`;
  return extra === undefined ? line : `${line} ${extra instanceof Error ? extra.stack : safeJson(extra)}`;
}

export function createLogger(level: LogLevel = "info", format: LogFormat = "text", sink: LogSink = (line) => console.error(line)) {
  const min = LEVELS.indexOf(level);
  const write = format === "json" ? jsonLine : textLine;
  const at = (l: Exclude<LogLevel, "silent">) => (msg: string, extra?: unknown) => {
    if (LEVELS.indexOf(l) < min) return;
    sink(write(l, msg, extra, currentRequestId()));
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
export type Logger = ReturnType<typeof createLogger>;
