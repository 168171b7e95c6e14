// Exit codes of every open exec of one engine, learned in one place. Engine API 1.41 reports an
// exec's exit code only through `exec inspect`; polling that per exec (about 5 times a second)
// cost some 400 engine calls a second for one user holding 80 shells.
// Instead: the engine's event stream says `exec_die` with the exec's id and exit code the moment
// it ends (dockerd 20.10), and one shared loop inspects each open exec as a safety net (an event
// missed while the stream reconnects) every 2 s; without the stream, often at first, then every
// 1.5 s.
import type { IncomingMessage } from "node:http";
import type Docker from "dockerode";

interface Watch {
  exec: Docker.Exec;
  since: number;
  /** When the loop inspects it next (Infinity while an inspection is in flight). */
  next: number;
  outputEnded: boolean;
  errors: number;
  resolve(code: number): void;
  reject(e: Error): void;
}

export interface WatchedExec {
  /** The exit code (128+n when killed by signal n); rejects when the exec vanished. */
  exit: Promise<number>;
  /** Its output ended: the process has most likely ended too, look soon. */
  outputEnded(): void;
  /** Stop watching (the exec could not be started). */
  cancel(): void;
}

/** How long the event stream stays open with no exec to watch. */
const IDLE_CLOSE_MS = 15_000;

export function createExecWatcher(docker: Docker, labelFilter: string[], log: (m: string) => void) {
  const watches = new Map<string, Watch>();
  let timer: NodeJS.Timeout | null = null;
  let stream: IncomingMessage | null = null;
  let connecting: Promise<void> | null = null;
  let idle: NodeJS.Timeout | null = null;
  let retryAt = 0;

  /** Time until the next inspection of `w`: with the event stream the loop is only a safety net. */
  function interval(w: Watch, now: number) {
    if (stream !== null) return w.outputEnded ? 500 : 2000;
    if (w.outputEnded) return 20;
    return Math.min(1500, Math.max(50, (now - w.since) / 5));
  }

  function finish(id: string, code: number) {
    const w = watches.get(id);
    if (!w) return;
    watches.delete(id);
    w.resolve(code);
    if (!watches.size) idleSoon();
  }

  function fail(id: string, e: Error) {
    const w = watches.get(id);
    if (!w) return;
    watches.delete(id);
    w.reject(e);
    if (!watches.size) idleSoon();
  }

  function schedule() {
    if (timer) clearTimeout(timer);
    timer = null;
    let next = Infinity;
    for (const w of watches.values()) next = Math.min(next, w.next);
    if (next === Infinity) return;
    timer = setTimeout(() => void tick(), Math.max(0, next - Date.now()));
  }

  async function tick() {
    timer = null;
    const now = Date.now();
    const due = [...watches.entries()].filter(([, w]) => w.next <= now);
    for (const [, w] of due) w.next = Infinity;
    if (!stream && watches.size && now >= retryAt) void connect().catch(() => {});
    await Promise.all(due.map(([id, w]) => check(id, w)));
    schedule();
  }

  async function check(id: string, w: Watch) {
    try {
      const info = await w.exec.inspect();
      w.errors = 0;
      if (!info.Running && info.ExitCode !== null && info.ExitCode !== undefined) return finish(id, info.ExitCode);
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404 || ++w.errors >= 5) return fail(id, e as Error);
    }
    if (watches.get(id) === w) w.next = Date.now() + interval(w, Date.now());
  }

  /** Opens the event stream (once); resolves when the engine answered, or on failure. */
  function connect(): Promise<void> {
    if (stream) return Promise.resolve();
    connecting ??= (async () => {
      try {
        const s = (await docker.getEvents({ filters: { type: ["container"], event: ["exec_die"], label: labelFilter } })) as unknown as IncomingMessage;
        stream = s;
        // The stream must not keep the process alive by itself.
        s.socket?.unref();
        let buffered = "";
        s.setEncoding("utf8");
        s.on("data", (chunk: string) => {
          buffered += chunk;
          let nl: number;
          while ((nl = buffered.indexOf("\n")) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line) onEvent(line);
          }
        });
        const closed = () => {
          if (stream !== s) return;
          stream = null;
          retryAt = Date.now() + 1000;
          // Whatever ended while the stream was down is found by the loop, now at its quick pace.
          const now = Date.now();
          for (const w of watches.values()) if (w.next !== Infinity) w.next = Math.min(w.next, now + interval(w, now));
          schedule();
        };
        s.on("end", closed);
        s.on("close", closed);
        s.on("error", closed);
      } catch (e) {
        retryAt = Date.now() + 1000;
        log(`engine events unavailable, polling exec exit codes: ${(e as Error).message}`);
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  }

  function onEvent(line: string) {
    let event: { Action?: string; Actor?: { Attributes?: Record<string, string> } };
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    const attrs = event.Actor?.Attributes ?? {};
    if (event.Action !== "exec_die" || !attrs.execID || attrs.exitCode === undefined) return;
    const code = Number(attrs.exitCode);
    if (Number.isInteger(code)) finish(attrs.execID, code);
  }

  function idleSoon() {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = null;
      if (!watches.size && stream) {
        const s = stream;
        stream = null;
        s.destroy();
      }
    }, IDLE_CLOSE_MS);
    idle.unref();
  }

  return {
    /** Starts watching an exec that was created but not started yet (so its end cannot be missed). */
    async watch(exec: Docker.Exec): Promise<WatchedExec> {
      if (idle) clearTimeout(idle);
      idle = null;
      await connect();
      const now = Date.now();
      let resolve!: (code: number) => void;
      let reject!: (e: Error) => void;
      const exit = new Promise<number>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      exit.catch(() => {}); // handled by whoever awaits it; never an unhandled rejection
      const w: Watch = { exec, since: now, next: 0, outputEnded: false, errors: 0, resolve, reject };
      w.next = now + interval(w, now);
      watches.set(exec.id, w);
      schedule();
      return {
        exit,
        outputEnded() {
          if (watches.get(exec.id) !== w || w.outputEnded) return;
          w.outputEnded = true;
          if (w.next !== Infinity) w.next = Math.min(w.next, Date.now() + interval(w, Date.now()));
          schedule();
        },
        cancel() {
          fail(exec.id, new Error("exec was not started"));
        },
      };
    },
    /** How many execs are watched (tests). */
    get size() {
      return watches.size;
    },
    /** Whether exit codes come from the event stream right now (tests, logs). */
    get eventsLive() {
      return stream !== null;
    },
    close() {
      if (timer) clearTimeout(timer);
      if (idle) clearTimeout(idle);
      stream?.destroy();
      stream = null;
    },
  };
}
export type ExecWatcher = ReturnType<typeof createExecWatcher>;
