// The requests of an SSH session channel (ssh2's "session"), as sshd answers them
// (docs/decisions/004-ssh-gateway.md, "Sessions, as sshd does them"): pty, window-change, env and
// signal are remembered or forwarded within limits (limits.ts); shell, exec and the sftp subsystem
// each start one exec (exec-bridge.ts); agent and X11 forwarding are refused.
import type { Session } from "ssh2";
import type { ShellRecorder } from "#server/core/recordings/recorder.ts";
import type { ExecSession, Runtime } from "#server/runtime/types.ts";
import type { Conn } from "./connection.ts";
import { createExecBridge } from "./exec-bridge.ts";
import { acceptEnv, acceptTerm, clampSize } from "./limits.ts";
import { createShellState, resizeShell, signalShell } from "./shell.ts";
import type { GatewayLogger } from "./types.ts";

export interface ChannelDeps {
  runtime: Runtime;
  log: GatewayLogger;
  hangUp: (exec: ExecSession) => void;
  /** Records every shell and command (not sftp) as an asciicast (server/core/recordings/). */
  recorder?: ShellRecorder;
  /** The sftp server binary inside containers. */
  sftpServer: string;
}

export function createChannelHandler(deps: ChannelDeps) {
  const { log, hangUp, sftpServer } = deps;
  const start = createExecBridge(deps);

  return function onSshSession(conn: Conn, session: Session) {
    const s = createShellState(log);
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
      // Bounded here, once: the size and TERM become the exec's and the recording's header.
      s.pty = { term: acceptTerm(info.term), cols: clampSize(info.cols, 80), rows: clampSize(info.rows, 24) };
      accept?.();
    });
    session.on("window-change", (accept, _reject, info) => {
      resizeShell(s, info.cols, info.rows);
      accept?.();
    });
    session.on("env", (accept, reject, info) => {
      // Bounded in count, name length and total size: each entry is held in memory and becomes
      // part of the exec's environment.
      if (!s.channel && acceptEnv(s.env, info.key, info.val)) accept?.();
      else reject?.();
    });
    session.on("signal", (accept, reject, info) => {
      if (signalShell(s, info.name, log)) accept?.();
      else reject?.();
    });
    session.on("shell", (accept) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "shell";
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-l"], !!s.pty, { source: "ssh" })
        .catch(failed)
        .finally(done);
    });
    session.on("exec", (accept, _reject, info) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "exec";
      // As sshd does: the user's shell runs the command line.
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-c", info.command], !!s.pty, { source: "ssh", command: info.command })
        .catch(failed)
        .finally(done);
    });
    session.on("subsystem", (accept, reject, info) => {
      if (info.name !== "sftp") return reject?.();
      const channel = accept();
      if (!channel) return;
      s.kind = "sftp";
      start(conn, s, channel, [sftpServer], false, { quiet: true, source: "ssh" }).catch(failed).finally(done);
    });
    session.on("x11", (_accept, reject) => reject?.());
    session.on("auth-agent", (_accept, reject) => reject?.());
    session.on("close", done);
  };
}
