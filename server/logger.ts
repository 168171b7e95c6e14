// A tiny levelled logger on stderr; one line per event.
const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LEVELS)[number];

export function createLogger(level: LogLevel = "info") {
  const min = LEVELS.indexOf(level);
  const at = (l: LogLevel) => (msg: string, extra?: unknown) => {
    if (LEVELS.indexOf(l) < min) return;
    const line = `${new Date().toISOString()} ${l.toUpperCase()} ${msg}`;
    console.error(extra === undefined ? line : `${line} ${extra instanceof Error ? extra.stack : JSON.stringify(extra)}`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
export type Logger = ReturnType<typeof createLogger>;
