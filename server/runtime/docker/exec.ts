// Exec (docs/decisions/003-runtime-docker.md, "Exec"): a process in a container with its own
// stdin, stdout and stderr, a TTY when asked, its exit code from the shared watcher
// (exec-watch.ts), and signals through signals.ts. Exec'd processes keep running when the client
// goes away, and API 1.41 has neither a kill for execs nor a console size at start.
import type { Socket } from "node:net";
import { PassThrough, type Readable } from "node:stream";
import type Docker from "dockerode";
import { LABEL } from "#server/runtime/policy.ts";
import { RuntimeError, type ExecOptions, type ExecSession } from "#server/runtime/types.ts";
import { sleep, statusOf, type DriverContext } from "./engine.ts";
import { createExecWatcher } from "./exec-watch.ts";
import { signalInside, signalProcessSession, statOf, type ProcessId } from "./signals.ts";

export function createExec(ctx: DriverContext) {
  const { docker, local } = ctx;
  const execs = createExecWatcher(docker, [`${LABEL.managed}=1`], ctx.log);

  return async function exec(containerId: string, opts: ExecOptions): Promise<ExecSession> {
    if (!opts.command.length) throw new RuntimeError("exec needs a command", "invalid");
    const container = docker.getContainer(containerId);
    const tty = !!opts.tty;
    let ex: Docker.Exec;
    try {
      ex = await container.exec({
        Cmd: tty && opts.cols && opts.rows ? sized(opts.command, opts.cols, opts.rows) : opts.command,
        AttachStdin: !!opts.stdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: tty,
        Env: opts.env ? Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) : undefined,
        User: opts.user,
        WorkingDir: opts.workdir,
      });
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) throw new RuntimeError(`container ${containerId} not found`, "not_found");
      if (status === 409) throw new RuntimeError(`container ${containerId} is not running`, "invalid");
      throw e;
    }
    const watched = await execs.watch(ex);
    let stream: NodeJS.ReadWriteStream & Socket;
    try {
      stream = (await ex.start({ hijack: true, stdin: !!opts.stdin, Tty: tty })) as unknown as NodeJS.ReadWriteStream & Socket;
    } catch (e) {
      watched.cancel();
      throw e;
    }
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    if (tty) {
      stream.pipe(stdout);
      stream.on("end", () => stderr.end());
    } else {
      demux(stream, stdout, stderr);
      stream.on("end", () => {
        stdout.end();
        stderr.end();
      });
    }
    stream.on("error", (e) => {
      stdout.destroy(e);
      stderr.destroy(e);
    });
    if (tty && opts.cols && opts.rows) {
      // API 1.41 has no ConsoleSize on exec start: size the terminal right after.
      await ex.resize({ w: opts.cols, h: opts.rows }).catch(() => {});
    }
    // The output can end before the process (it closed its descriptors), or stay open after it
    // (a daemon inherited them): the exit code comes from the watcher either way.
    stream.on("close", () => watched.outputEnded());
    stream.on("end", () => watched.outputEnded());

    let leader: ProcessId | null = null;
    let target: { id: string; initPid: number } | undefined;
    /** The exec's host PID and its start time (the process's identity: a PID can be reused),
     *  learned when first needed. The engine keeps an ended exec's PID in its record, so the
     *  process session of a leader that has ended (background jobs of a shell that exited) is
     *  found too. */
    async function learnLeader() {
      // Until the engine has created the process its PID reads 0: ask again, backing off (a
      // loaded engine can take a second or more).
      for (let i = 0, delay = 10; i < 12 && !leader; i++, delay = Math.min(delay * 2, 1000)) {
        const info = await ex.inspect().catch(() => null);
        if (!info) return;
        if (info.Pid) {
          const st = info.Running ? statOf(info.Pid) : null;
          leader = { pid: info.Pid, start: st?.start ?? null };
          return;
        }
        if (!info.Running && info.ExitCode !== null) return;
        await sleep(delay);
      }
    }

    return {
      id: ex.id,
      stdin: opts.stdin ? stream : null,
      stdout,
      stderr,
      async resize(cols, rows) {
        if (!tty) return;
        await ex.resize({ w: cols, h: rows }).catch((e) => {
          if (statusOf(e) !== 404 && !/not running|no such exec/i.test((e as Error).message)) throw e;
        });
      },
      async signal(signal = "SIGKILL") {
        if (!local) throw new RuntimeError("signalling an exec needs the engine on this host (its /proc)", "invalid");
        // Under gVisor the host PID the engine reports is runsc's, not the process's: nothing of
        // the exec's process session can be reached from the host (docs/decisions/007-sandboxing.md).
        if (ctx.ociRuntime === "runsc") throw new RuntimeError("signalling an exec is not supported under gVisor (runsc)", "invalid");
        if (!leader) await learnLeader();
        if (!leader) return;
        if (!target) {
          const c = await container.inspect();
          target = { id: c.Id, initPid: c.State.Pid };
        }
        const t = target;
        await signalProcessSession(leader, t, signal, (pids) => signalInside(docker, t.id, pids, signal));
      },
      wait: () => watched.exit,
    };
  };
}

/** Splits the engine's multiplexed exec stream (frames: 8-byte header with the stream type and the
 *  length) into stdout and stderr, pausing the source while a destination is full. docker-modem's
 *  demuxStream ignores back-pressure: a command writing fast to a slow reader (an SSH client)
 *  was buffered in this process without bound (gigabytes within seconds). */
function demux(source: Readable, stdout: PassThrough, stderr: PassThrough) {
  let pending: Buffer = Buffer.alloc(0);
  let waiting = 0;
  const drained = () => {
    if (--waiting === 0) source.resume();
  };
  source.on("data", (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 8) {
      const length = pending.readUInt32BE(4);
      if (pending.length < 8 + length) break;
      const target = pending[0] === 2 ? stderr : stdout;
      const payload = pending.subarray(8, 8 + length);
      pending = pending.subarray(8 + length);
      if (!target.write(payload)) {
        waiting++;
        target.once("drain", drained);
      }
    }
    if (waiting > 0) source.pause();
  });
}

/** API 1.41 has no ConsoleSize on exec: the resize after the start can land after a short command
 *  has already asked its terminal's size (`ssh -t host 'stty size'` read 0 0 on a busy host). The
 *  terminal is sized first, inside, then the command replaces the shell (same process). */
function sized(command: string[], cols: number, rows: number): string[] {
  return ["/bin/sh", "-c", 'stty rows "$1" cols "$2" 2>/dev/null; shift 2; exec "$@"', "sh", String(rows), String(cols), ...command];
}
