// The browser terminal's shells: one per deployment (one tab at a time: a second tab takes the
// shell over, the first is told), each an exec started through the SSH gateway's own exec path
// (server/gateway/exec-bridge.ts, shell.ts), so TTY, resize, signals, hang-up, recording and the
// "deployment has ended" message are the same code as for ssh. What differs is the carrier: a
// WebSocket that may drop and come back. A shell outlives its socket for a grace period; the page
// reconnects with the shell's id and the output offset it had reached and gets exactly what it
// missed (output-ring.ts); a new page gets the recent screen. Limits: TERMINAL_LIMITS
// (shared/contract/terminal.ts) and the input rate below.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Duplex, Writable } from "node:stream";
import type { WebSocket } from "ws";
import type { ShellRecorder } from "#server/core/recordings/recorder.ts";
import { createExecBridge, type ShellOwner } from "#server/gateway/exec-bridge.ts";
import { endShell, createShellState, resizeShell, type ShellState } from "#server/gateway/shell.ts";
import type { GatewayLogger, Target } from "#server/gateway/types.ts";
import type { ExecSession, Runtime } from "#server/runtime/types.ts";
import { TERMINAL_CLOSE, TERMINAL_LIMITS, TERMINAL_TEXT, type TerminalServerMessage } from "#shared/contract/terminal.ts";
import { OutputRing } from "./output-ring.ts";

/** Keystrokes and pastes: 256 KiB at once, then 32 KiB a second; beyond it input is dropped
 *  (and the page told). A person types far less; a paste of a long script fits. */
const INPUT_RATE = { burstBytes: 256 * 1024, bytesPerSecond: 32 * 1024 };
/** Control messages (a resize is ~40 bytes): longer than this, ignored unread; each costs the
 *  input budget CONTROL_COST bytes: 256 at once, then 32 a second. A window dragged by its corner
 *  sends a few dozen, and only while it changes the terminal's size. */
const MAX_CONTROL_BYTES = 256;
const CONTROL_COST = 1024;

export interface WebShellsDeps {
  runtime: Runtime;
  log: GatewayLogger;
  hangUp: (exec: ExecSession) => void;
  recorder?: ShellRecorder;
  /** Tests shorten these. */
  graceMs?: number;
  idleMs?: number;
}

/** The shell's side of the carrier: a stream whose output goes to whichever socket is attached,
 *  and waits (back-pressure up to the process) while none is. */
class WebChannel extends Duplex {
  readonly stderr: Writable;
  socket: WebSocket | null = null;
  /** A write's completion held while no socket is attached, or in flight on the socket. */
  private held: (() => void) | null = null;

  constructor(
    readonly ring: OutputRing,
    private readonly onFinal: () => void,
    readonly exitCode: { value: number | null },
  ) {
    super({ allowHalfOpen: true, highWaterMark: 64 * 1024 });
    // With a TTY everything comes on stdout; the bridge's own messages may use stderr.
    this.stderr = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.write(chunk);
        cb();
      },
    });
  }

  _read() {}

  _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void) {
    this.ring.append(chunk);
    let called = false;
    const done = () => {
      if (called) return;
      called = true;
      if (this.held === done) this.held = null;
      cb();
    };
    this.held = done;
    const ws = this.socket;
    if (ws && ws.readyState === ws.OPEN) ws.send(chunk, { binary: true }, () => done());
  }

  _final(cb: () => void) {
    this.onFinal();
    cb();
  }

  attach(ws: WebSocket) {
    this.socket = ws;
    // What was held is in the ring, and the page gets it with the replay.
    this.held?.();
  }

  detach(ws: WebSocket) {
    if (this.socket === ws) this.socket = null;
  }

  exit(code: number) {
    this.exitCode.value = code;
  }

  close() {
    this.destroy();
  }
}

interface WebShell extends ShellOwner {
  id: string;
  userId: string;
  deploymentId: string;
  state: ShellState;
  channel: WebChannel;
  ring: OutputRing;
  input: ByteBucket;
  /** Set when we end it: what the page is told instead of an exit status. */
  endMessage: string | null;
  exitCode: { value: number | null };
  grace: NodeJS.Timeout | null;
  idle: NodeJS.Timeout;
  startedAt: number;
  disposed: boolean;
}

export interface AttachRequest {
  userId: string;
  target: Target;
  cols: number;
  rows: number;
  /** The shell the page was showing and how much of its output it received (a reconnect). */
  shellId?: string;
  offset?: number;
  remote: string;
}

const send = (ws: WebSocket | null, m: TerminalServerMessage) => {
  if (ws && ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
};

export function createWebShells(deps: WebShellsDeps) {
  const { log, hangUp } = deps;
  const graceMs = deps.graceMs ?? TERMINAL_LIMITS.graceSeconds * 1000;
  const idleMs = deps.idleMs ?? TERMINAL_LIMITS.idleMinutes * 60_000;
  const start = createExecBridge({ runtime: deps.runtime, log, hangUp, recorder: deps.recorder });
  /** By deployment: one shell each. */
  const shells = new Map<string, WebShell>();

  function dispose(shell: WebShell, reason: string) {
    if (shell.disposed) return;
    shell.disposed = true;
    shell.closed = true;
    if (shells.get(shell.deploymentId) === shell) shells.delete(shell.deploymentId);
    if (shell.grace) clearTimeout(shell.grace);
    clearTimeout(shell.idle);
    shell.state.resizer.stop();
    const ws = shell.channel.socket;
    if (ws && ws.readyState === ws.OPEN) ws.close(TERMINAL_CLOSE.done, reason.slice(0, 120));
    // Closing the channel hangs the process up (exec-bridge.ts) when it still runs.
    shell.channel.destroy();
    if (shell.state.exec && !shell.state.ended) hangUp(shell.state.exec);
    log.info(
      `terminal: shell deployment=${shell.deploymentId} remote=${shell.remote} duration=${((Date.now() - shell.startedAt) / 1000).toFixed(1)}s end=${JSON.stringify(reason)}`,
    );
  }

  /** Ends a shell from our side with a message the page shows (deployment ended, idle...). */
  function endWith(shell: WebShell, message: string) {
    if (shell.disposed || shell.disconnecting) return;
    shell.disconnecting = true;
    shell.endMessage = message;
    if (!shell.channel.socket) return dispose(shell, message);
    // The message goes through the channel like the shell's output; the page is told once it
    // has been written (the channel's end), and a page that does not read is cut anyway.
    endShell(shell.state, message, hangUp);
    setTimeout(() => dispose(shell, message), 3000).unref();
  }

  function create(req: AttachRequest): WebShell {
    const ring = new OutputRing();
    const exitCode = { value: null as number | null };
    const shell: WebShell = {
      id: randomUUID(),
      userId: req.userId,
      deploymentId: req.target.deploymentId,
      target: req.target,
      remote: req.remote,
      closed: false,
      state: createShellState(log),
      ring,
      exitCode,
      channel: null as unknown as WebChannel,
      input: new ByteBucket(INPUT_RATE.burstBytes, INPUT_RATE.bytesPerSecond),
      endMessage: null,
      grace: null,
      idle: setTimeout(() => endWith(shell, TERMINAL_TEXT.idle), idleMs),
      startedAt: Date.now(),
      disposed: false,
    };
    shell.idle.unref();
    shell.channel = new WebChannel(
      ring,
      () => {
        // Everything written has gone out: say why it ended, then close.
        const ws = shell.channel.socket;
        if (shell.endMessage) send(ws, { type: "ended", message: shell.endMessage });
        else send(ws, { type: "exit", code: exitCode.value ?? 0 });
        dispose(shell, shell.endMessage ?? `exit ${exitCode.value ?? 0}`);
      },
      exitCode,
    );
    shell.channel.on("error", (e) => log.debug(`terminal: channel: ${e.message}`));
    shell.state.kind = "shell";
    shell.state.pty = { term: "xterm-256color", cols: req.cols, rows: req.rows };
    shells.set(shell.deploymentId, shell);
    const t = req.target;
    start(shell, shell.state, shell.channel, [t.shell ?? "/bin/bash", "-l"], true, { source: "web" })
      .catch((e) => log.error(`terminal: shell in ${t.deploymentId}`, e))
      .finally(() => {
        // The exec could not start (the bridge wrote why and ended the channel) or has ended.
        if (!shell.disposed && shell.channel.writableFinished) dispose(shell, "ended");
      });
    return shell;
  }

  return {
    /**
     * Attaches a page's socket to the deployment's shell (starting one when there is none).
     * Refusals close the socket with a code and reason (TERMINAL_CLOSE).
     */
    attach(ws: WebSocket, req: AttachRequest) {
      let shell = shells.get(req.target.deploymentId);
      if (shell && (shell.userId !== req.userId || shell.disposed || shell.disconnecting)) {
        dispose(shell, "replaced");
        shell = undefined;
      }
      const resumed = !!shell;
      if (shell) {
        const previous = shell.channel.socket;
        if (previous && previous !== ws) {
          send(previous, { type: "taken", message: TERMINAL_TEXT.taken });
          shell.channel.detach(previous);
          previous.close(TERMINAL_CLOSE.taken, "Opened in another tab");
        }
        if (shell.grace) clearTimeout(shell.grace);
        shell.grace = null;
        shell.remote = req.remote;
        resizeShell(shell.state, req.cols, req.rows);
      } else {
        let mine = 0;
        for (const s of shells.values()) if (s.userId === req.userId) mine++;
        if (mine >= TERMINAL_LIMITS.shellsPerUser) return ws.close(TERMINAL_CLOSE.tooMany, TERMINAL_TEXT.tooMany);
        shell = create(req);
      }
      const s = shell;
      const { data, from, lost } = s.ring.since(req.shellId === s.id ? (req.offset ?? 0) : s.ring.start);
      send(ws, { type: "attached", shell_id: s.id, from, lost: lost || (req.shellId !== undefined && req.shellId !== s.id && from > 0), resumed });
      if (data.length) ws.send(data, { binary: true });
      s.channel.attach(ws);

      let warned = 0;
      const onMessage = (raw: Buffer, isBinary: boolean) => {
        if (s.disposed) return;
        if (!isBinary) {
          // Control messages come out of the input's byte budget: each one is parsed, and a page
          // could send them in a loop. A long one is not even read.
          if (raw.length > MAX_CONTROL_BYTES || !s.input.take(CONTROL_COST)) return;
          const m = parseControl(raw);
          if (m?.type === "resize") resizeShell(s.state, m.cols, m.rows);
          return;
        }
        if (!raw.length) return;
        if (!s.input.take(raw.length)) {
          if (Date.now() - warned > 5000) {
            warned = Date.now();
            send(ws, { type: "notice", message: TERMINAL_TEXT.inputDropped });
          }
          return;
        }
        s.idle.refresh();
        s.channel.push(Buffer.from(raw));
      };
      // A page's message runs our code (and the recorder's, through the channel's 'data') inside
      // ws's socket reader, where a throw would end the process: it ends this shell instead.
      ws.on("message", (raw: Buffer, isBinary: boolean) => {
        try {
          onMessage(raw, isBinary);
        } catch (e) {
          log.error(`terminal: a message for the shell in ${s.deploymentId} failed`, e);
          dispose(s, "failed");
        }
      });
      ws.on("close", () => {
        if (s.channel.socket !== ws) return;
        s.channel.detach(ws);
        if (s.disposed) return;
        // The page may come back (a network blip, a reload): the shell waits for it.
        s.grace = setTimeout(() => dispose(s, "no page came back"), graceMs);
        s.grace.unref();
      });
    },
    /** The deployment ended (or was reset): its shell ends with `message`. */
    closeDeployment(deploymentId: string, message: string) {
      const shell = shells.get(deploymentId);
      if (shell) endWith(shell, message);
    },
    /** The server stops: every shell ends with `message`. */
    closeAll(message: string) {
      for (const shell of [...shells.values()]) endWith(shell, message);
    },
    stats() {
      return { shells: shells.size, attached: [...shells.values()].filter((s) => s.channel.socket).length };
    },
  };
}
export type WebShells = ReturnType<typeof createWebShells>;

/** A byte budget: `capacity` bytes at once, refilled at `perSecond`. */
export class ByteBucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
  ) {
    this.tokens = capacity;
  }

  take(n: number): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (n > this.tokens) return false;
    this.tokens -= n;
    return true;
  }
}

const control = z.object({ type: z.literal("resize"), cols: z.number().int(), rows: z.number().int() });

function parseControl(raw: Buffer): z.infer<typeof control> | null {
  try {
    const m = control.safeParse(JSON.parse(raw.toString("utf8")));
    return m.success ? m.data : null;
  } catch {
    return null; // not JSON: ignored
  }
}
