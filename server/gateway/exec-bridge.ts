// One shell bridged to one exec in the deployment's container, as sshd would run it
// (docs/decisions/004-ssh-gateway.md, "Sessions, as sshd does them"): the user's environment and
// home, a retry from / when the home directory is missing, everything the process wrote delivered
// however slowly the client reads, and the exit status before end of file. The one exec path of
// SSH session channels (channels.ts) and the browser terminal (server/terminal/): both hand it a
// ShellChannel (shell.ts). Every shell and command (not sftp) is recorded on the way when a
// recorder is given (server/core/recordings/recorder.ts).
import type { Readable } from "node:stream";
import type { ShellRecorder, ShellRecording } from "#server/core/recordings/recorder.ts";
import type { ExecOptions, ExecSession, Runtime } from "#server/runtime/types.ts";
import { sleep } from "./connection.ts";
import { endShell, type ShellChannel, type ShellState } from "./shell.ts";
import type { GatewayLogger, Target } from "./types.ts";

export interface ExecBridgeDeps {
  runtime: Runtime;
  log: GatewayLogger;
  hangUp: (exec: ExecSession) => void;
  recorder?: ShellRecorder;
}

/** Who the shell is for and whether its carrier is going: an SSH connection (Conn) or a browser
 *  terminal. */
export interface ShellOwner {
  target?: Target;
  remote: string;
  closed: boolean;
  disconnecting?: boolean;
  /** Why we are ending it (set with disconnecting): what a shell asked for too late is told. */
  endMessage?: string | null;
}

export interface StartOptions {
  /** No "could not start" message (sftp speaks a binary protocol on the channel). */
  quiet?: boolean;
  source: "ssh" | "web";
  /** The command line of an `exec` request (recorded in the asciicast header). */
  command?: string;
}

export function createExecBridge({ runtime, log, hangUp, recorder }: ExecBridgeDeps) {
  return async function start(conn: ShellOwner, s: ShellState, channel: ShellChannel, command: string[], tty: boolean, opts: StartOptions) {
    const t = conn.target!;
    s.channel = channel;
    channel.on("error", (e: Error) => log.debug(`ssh: channel ${conn.remote}: ${e.message}`));
    // Asked for while we end the connection (the deployment ends or resets): the person gets the
    // reason, as the channels open before it did, instead of an exec in a container on its way out.
    if (conn.disconnecting) {
      endShell(s, conn.endMessage ?? "", hangUp);
      return;
    }
    let channelClosed = false;
    channel.once("close", () => {
      channelClosed = true;
      if (s.exec && !s.ended) hangUp(s.exec);
    });
    const home = t.home ?? (t.shellUser === "root" ? "/root" : `/home/${t.shellUser}`);
    const env: Record<string, string> = {
      ...s.env,
      HOME: home,
      USER: t.shellUser,
      LOGNAME: t.shellUser,
      SHELL: t.shell ?? "/bin/bash",
    };
    if (tty) env.TERM = s.pty!.term;
    const execOptions: ExecOptions = { command, tty, stdin: true, env, user: t.shellUser, workdir: home };
    if (tty) {
      execOptions.cols = s.pty!.cols;
      execOptions.rows = s.pty!.rows;
    }
    const launch = async (workdir: string) => {
      try {
        return await runtime.exec(t.containerId, { ...execOptions, workdir });
      } catch (e) {
        // While we end the connection the container is expected to go, and endShell told the person.
        const level = conn.disconnecting ? "debug" : "warn";
        log[level](`ssh: exec in ${t.deploymentId} (${t.containerId.slice(0, 12)}) failed: ${(e as Error).message}`);
        if (!channelClosed && !conn.disconnecting) {
          if (!opts.quiet) channel.stderr.write(`faultline: could not start a shell in your deployment: it may have ended.\r\n`);
          channel.exit(255);
          channel.end();
        }
        return null;
      }
    };
    let exec = await launch(home);
    if (!exec) return;
    s.exec = exec;
    if (channelClosed || conn.closed || conn.disconnecting) {
      hangUp(exec);
      return;
    }
    // Recording may be refused (rate, free space, quota: recorder.ts); the shell runs either way.
    const rec = s.kind === "sftp" ? null : await beginRecording(recorder, t, opts, s.pty ?? null);
    s.recording = rec;
    if (channelClosed || conn.closed || conn.disconnecting) {
      hangUp(exec);
      void rec?.finish();
      return;
    }
    try {
      if (tty && s.pty && (s.pty.cols !== execOptions.cols || s.pty.rows !== execOptions.rows)) {
        // The window changed while the exec was starting.
        exec.resize(s.pty.cols, s.pty.rows).catch(() => {});
      }

      // The engine only reports a missing working directory on the process's output (exit 126).
      // Until the first output arrives, what the client sends is kept (bounded) so that, in that
      // case, the same request can run again from / with nothing lost, as sshd does ("Could not
      // chdir to home directory").
      let kept: Buffer[] | null = [];
      let keptBytes = 0;
      const keep = (chunk: Buffer) => {
        if (!kept) return;
        keptBytes += chunk.length;
        if (keptBytes > 256 * 1024) kept = null;
        else kept.push(chunk);
      };
      channel.on("data", keep);
      if (rec) channel.on("data", rec.input);
      const attach = (e: ExecSession) => {
        e.stdout.on("error", () => {});
        e.stderr.on("error", () => {});
        if (rec) e.stderr.on("data", rec.output);
        e.stderr.pipe(channel.stderr, { end: false });
        if (e.stdin) {
          e.stdin.on("error", () => {});
          // The client's end of file ends the process's stdin, without a TTY. With one, sshd keeps
          // the terminal open (a ^D is the terminal's end of file), and ending a TTY exec's input
          // makes the engine drop the rest of its output.
          channel.pipe(e.stdin, { end: !tty });
        }
      };
      attach(exec);
      const first = await firstChunk(exec.stdout);
      if (first && kept && /^OCI runtime exec failed: .*chdir to cwd/.test(first.subarray(0, 300).toString("latin1"))) {
        const old = exec;
        old.stderr.unpipe(channel.stderr);
        if (old.stdin) channel.unpipe(old.stdin);
        old.stdout.destroy();
        old.stderr.destroy();
        old.stdin?.destroy();
        const replay = kept;
        channel.stderr.write(`Could not chdir to home directory ${home}: No such file or directory\r\n`);
        exec = await launch("/");
        if (!exec) return;
        s.exec = exec;
        if (channelClosed || conn.closed || conn.disconnecting) {
          hangUp(exec);
          return;
        }
        for (const chunk of replay) exec.stdin?.write(chunk);
        attach(exec);
        if (channel.readableEnded && !tty) exec.stdin?.end();
      } else if (first) {
        channel.write(first);
        rec?.output(first);
      }
      channel.off("data", keep);
      kept = null;
      if (conn.disconnecting) return;
      if (rec) exec.stdout.on("data", rec.output);
      exec.stdout.pipe(channel, { end: false });
      const outputDone = Promise.all([ended(exec.stdout), ended(exec.stderr)]);

      let code: number;
      try {
        code = await exec.wait();
      } catch (e) {
        log.debug(`ssh: wait: ${(e as Error).message}`);
        code = 255;
      }
      s.ended = true;
      // Everything the process wrote reaches the client, however slowly it reads; but a daemon the
      // user started can hold the output open for ever: once nothing is in flight and nothing new
      // came for a moment, stop waiting.
      let outputEnded = false;
      outputDone.then(() => (outputEnded = true));
      let lastOutput = Date.now();
      const bump = () => (lastOutput = Date.now());
      exec.stdout.on("data", bump);
      exec.stderr.on("data", bump);
      const idleMs = tty ? 150 : 300;
      while (!outputEnded && !channelClosed && !conn.disconnecting) {
        const inFlight = exec.stdout.readableLength + exec.stderr.readableLength + channel.writableLength + channel.stderr.writableLength;
        if (inFlight === 0 && Date.now() - lastOutput >= idleMs) break;
        await Promise.race([outputDone, sleep(25)]);
      }
      exec.stdout.unpipe(channel);
      exec.stderr.unpipe(channel.stderr);
      if (exec.stdin) channel.unpipe(exec.stdin);
      exec.stdout.destroy();
      exec.stderr.destroy();
      exec.stdin?.destroy();
      if (!channelClosed && !conn.disconnecting) {
        // Exit status first, then end of file and close: OpenSSH reports 255 when the channel
        // closes before the exit status arrives (docs/decisions/004-ssh-gateway.md).
        channel.exit(code);
        channel.end();
      }
    } finally {
      void rec?.finish();
    }
  };

  async function beginRecording(
    recorder: ShellRecorder | undefined,
    t: Target,
    opts: StartOptions,
    pty: ShellState["pty"] | null,
  ): Promise<ShellRecording | null> {
    if (!recorder || !t.userId || !t.challengeId) return null;
    try {
      return await recorder.begin({
        userId: t.userId,
        deploymentId: t.deploymentId,
        challengeId: t.challengeId,
        source: opts.source,
        cols: pty?.cols ?? 80,
        rows: pty?.rows ?? 24,
        term: pty?.term,
        command: opts.command,
      });
    } catch (e) {
      log.warn(`shell: recording in ${t.deploymentId} not started: ${(e as Error).message}`);
      return null;
    }
  }
}

/** The first chunk a stream gives (then it is paused), or null when it ends without one. */
function firstChunk(stream: Readable): Promise<Buffer | null> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve(null);
  return new Promise((r) => {
    const done = (chunk: Buffer | null) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("close", onEnd);
      stream.off("error", onEnd);
      r(chunk);
    };
    const onData = (chunk: Buffer) => {
      stream.pause();
      done(chunk);
    };
    const onEnd = () => done(null);
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("close", onEnd);
    stream.once("error", onEnd);
  });
}

function ended(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((r) => {
    stream.once("end", () => r());
    stream.once("close", () => r());
    stream.once("error", () => r());
  });
}
