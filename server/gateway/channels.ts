// The requests of an SSH session channel (ssh2's "session"), as sshd answers them
// (docs/decisions/004-ssh-gateway.md, "Sessions, as sshd does them"): pty, window-change, env and
// signal are remembered or forwarded within limits (limits.ts); shell, exec and the sftp subsystem
// each start one exec (exec-bridge.ts); agent and X11 forwarding are refused.
import type { Session } from "ssh2";
import type { ExecSession, Runtime } from "../runtime/types.ts";
import type { ChannelState, Conn } from "./connection.ts";
import { createExecBridge } from "./exec-bridge.ts";
import { acceptEnv, Coalescer, TokenBucket } from "./limits.ts";
import type { GatewayLogger } from "./types.ts";

/** `signal` requests per channel: a burst of 8, then 2 a second (each one walks the container's
 *  processes). `window-change`: the last size within 100 ms wins, at most 4 at once then 4 a second
 *  reach the engine (each is an engine API call). */
const SIGNAL_RATE = { capacity: 8, perSecond: 2 };
const RESIZE_RATE = { capacity: 4, perSecond: 4, coalesceMs: 100 };

export interface ChannelDeps {
  runtime: Runtime;
  log: GatewayLogger;
  hangUp: (exec: ExecSession) => void;
  /** The sftp server binary inside containers. */
  sftpServer: string;
}

export function createChannelHandler(deps: ChannelDeps) {
  const { log, hangUp, sftpServer } = deps;
  const start = createExecBridge(deps);

  return function onSshSession(conn: Conn, session: Session) {
    const s: ChannelState = {
      env: {},
      ended: false,
      signals: new TokenBucket(SIGNAL_RATE.capacity, SIGNAL_RATE.perSecond),
      resizer: new Coalescer(
        ({ cols, rows }) => s.exec?.resize(cols, rows).catch((e) => log.debug(`ssh: resize: ${(e as Error).message}`)),
        new TokenBucket(RESIZE_RATE.capacity, RESIZE_RATE.perSecond),
        RESIZE_RATE.coalesceMs,
      ),
    };
    conn.channels.add(s);
    conn.channelsTotal++;
    const done = () => {
      s.resizer.stop();
      conn.channels.delete(s);
    };
    const failed = (e: unknown) => {
      log.error(`ssh: session ${conn.remote} in ${conn.target?.deploymentId}`, e);
      if (s.exec && !s.ended) hangUp(s.exec);
      try {
        s.channel?.close();
      } catch {
        // already closed
      }
    };

    session.on("pty", (accept, reject, info) => {
      if (s.channel) return reject?.();
      s.pty = { term: info.term || "xterm", cols: info.cols || 80, rows: info.rows || 24 };
      accept?.();
    });
    session.on("window-change", (accept, _reject, info) => {
      const cols = Math.max(1, Math.min(1000, info.cols | 0));
      const rows = Math.max(1, Math.min(1000, info.rows | 0));
      if (s.pty) s.pty = { ...s.pty, cols, rows };
      // Before the exec starts, the size is only remembered (start() passes s.pty).
      if (s.exec) s.resizer.push({ cols, rows });
      accept?.();
    });
    session.on("env", (accept, reject, info) => {
      // Bounded in count, name length and total size: each entry is held in memory and becomes
      // part of the exec's environment.
      if (!s.channel && acceptEnv(s.env, info.key, info.val)) accept?.();
      else reject?.();
    });
    session.on("signal", (accept, reject, info) => {
      const name = String(info.name).toUpperCase().replace(/^SIG/, "");
      if (!s.exec || !/^(HUP|INT|QUIT|TERM|KILL|USR1|USR2|ALRM|ABRT|CONT|STOP|TSTP|WINCH)$/.test(name)) return reject?.();
      if (!s.signals.take()) {
        log.debug(`ssh: signal ${name} from ${conn.remote} dropped: too many`);
        return reject?.();
      }
      s.exec.signal(`SIG${name}` as NodeJS.Signals).catch((e) => log.debug(`ssh: signal: ${(e as Error).message}`));
      accept?.();
    });
    session.on("shell", (accept) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "shell";
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-l"], !!s.pty).catch(failed).finally(done);
    });
    session.on("exec", (accept, _reject, info) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "exec";
      // As sshd does: the user's shell runs the command line.
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-c", info.command], !!s.pty).catch(failed).finally(done);
    });
    session.on("subsystem", (accept, reject, info) => {
      if (info.name !== "sftp") return reject?.();
      const channel = accept();
      if (!channel) return;
      s.kind = "sftp";
      start(conn, s, channel, [sftpServer], false, { quiet: true }).catch(failed).finally(done);
    });
    session.on("x11", (_accept, reject) => reject?.());
    session.on("auth-agent", (_accept, reject) => reject?.());
    session.on("close", done);
  };
}
