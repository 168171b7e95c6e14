// One client connection to the gateway, the SSH session channels it opened, and how both end:
// a hung-up terminal for the processes (SIGHUP, then SIGKILL), a last message for the person.
import type { Socket } from "node:net";
import type { Connection } from "ssh2";
import type { ExecSession } from "#server/runtime/types.ts";
import { endShell, type ShellState } from "./shell.ts";
import type { GatewayLogger, Target } from "./types.ts";

export { createHangUp } from "./shell.ts";

export interface Conn {
  id: number;
  socket: Socket;
  client?: Connection;
  remote: string;
  /** Who the per-address caps count this connection under (addressKey). */
  address: string;
  startedAt: number;
  sshUser?: string;
  /** The deployment this connection entered, once authenticated. */
  target?: Target;
  /** Who the per-owner cap counts this connection under (admission.ts). */
  limitKey?: string;
  authAttempts: number;
  refusals: Set<string>;
  /** A bad signature was logged for this connection already. */
  badSignature?: boolean;
  outcome: "none" | "refused" | "ok" | "timeout";
  overCapacity: boolean;
  /** The SSH session channels open now (ssh2's "session": one shell, command or sftp each). */
  channels: Set<ChannelState>;
  /** SSH session channels opened since the connection began (logged). */
  channelsTotal: number;
  closed: boolean;
  disconnecting?: boolean;
  /** Why we end it (disconnect): told on every channel, those asked for later too (exec-bridge.ts). */
  endMessage?: string;
  authTimer?: NodeJS.Timeout;
}

/** One SSH session channel: a shell as every carrier has it (shell.ts). */
export type ChannelState = ShellState;

/** The connection is gone (socket or client closed): its processes are hung up, one line logged. */
export function endConnection(conn: Conn, conns: Set<Conn>, hangUp: (exec: ExecSession) => void, log: GatewayLogger) {
  if (conn.closed) return;
  conn.closed = true;
  clearTimeout(conn.authTimer);
  conns.delete(conn);
  for (const s of conn.channels) if (s.exec && !s.ended) hangUp(s.exec);
  const seconds = ((Date.now() - conn.startedAt) / 1000).toFixed(1);
  const t = conn.target;
  // `sessions=` counts SSH session channels (ssh2's word); the line's format is kept as it was.
  log.info(
    `ssh: connection user=${conn.sshUser === undefined ? "-" : printable(conn.sshUser)} deployment=${t?.deploymentId ?? "-"}${t?.hostname ? ` host=${t.hostname}` : ""} remote=${conn.remote} duration=${seconds}s auth=${conn.outcome} sessions=${conn.channelsTotal}`,
  );
  try {
    conn.client?.end();
  } catch {
    // already gone
  }
  conn.socket.destroy();
}

/** Ends a connection from our side (its deployment ended, the gateway stops), telling the person
 *  why on each channel first. */
export function disconnect(conn: Conn, message: string, hangUp: (exec: ExecSession) => void) {
  if (conn.disconnecting) return;
  conn.disconnecting = true;
  conn.endMessage = message;
  let open = 0;
  // Closing the channels first lets OpenSSH print the message (it drops what it has not written
  // yet when the connection itself is cut) and exit by itself.
  for (const s of conn.channels) if (endShell(s, message, hangUp)) open++;
  const end = () => {
    try {
      conn.client?.end();
    } catch {
      // already gone
    }
  };
  // A signed-in client may be between its authentication and its shell request (OpenSSH asks at
  // once): that request still gets the message (exec-bridge.ts) within the same second.
  if (open || conn.target) setTimeout(end, 1000).unref();
  else end();
  // A client that does not answer still goes.
  setTimeout(() => conn.socket.destroy(), 3000).unref();
}

/** A client-chosen string made safe for a log line: no control characters, bounded. */
export function printable(value: string) {
  const quoted = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  return /^"[\w.@+-]+"$/.test(quoted) ? quoted.slice(1, -1) : quoted;
}

export function sleep(ms: number) {
  return new Promise<void>((r) => setTimeout(r, ms).unref());
}
