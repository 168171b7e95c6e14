// Running a command to completion in a container, on top of Runtime.exec: collects output (bounded),
// feeds stdin, enforces a time limit (killing what the command started), returns the exit code.
import type { Runtime } from "./types.ts";

export interface RunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  user?: string;
  workdir?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export async function runCommand(runtime: Runtime, containerId: string, command: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const max = options.maxOutputBytes ?? 1024 * 1024;
  const running = await runtime.exec(containerId, {
    command,
    stdin: options.input !== undefined,
    env: options.env,
    user: options.user,
    workdir: options.workdir,
  });
  const out = collect(running.stdout, max);
  const err = collect(running.stderr, max);
  if (running.stdin) running.stdin.end(options.input);

  let timedOut = false;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timer = setTimeout(() => {
    timedOut = true;
    running.signal("SIGKILL").catch(() => {});
  }, timeoutMs);
  let exitCode: number;
  try {
    exitCode = await running.wait();
  } finally {
    clearTimeout(timer);
  }
  // A daemon the command started may hold the output open: give it a moment, then stop reading.
  await Promise.race([Promise.all([out.done, err.done]), new Promise((r) => setTimeout(r, 300))]);
  running.stdout.destroy();
  running.stderr.destroy();
  running.stdin?.destroy();
  return { exitCode, stdout: out.text(), stderr: err.text(), timedOut, durationMs: Math.round(performance.now() - started) };
}

function collect(stream: NodeJS.ReadableStream, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  stream.on("data", (c: Buffer) => {
    if (size >= max) {
      truncated = true;
      return;
    }
    chunks.push(c.subarray(0, max - size));
    size += Math.min(c.length, max - size);
  });
  const done = new Promise<void>((resolve) => {
    stream.on("end", resolve);
    stream.on("close", resolve);
    stream.on("error", () => resolve());
  });
  return { done, text: () => Buffer.concat(chunks).toString("utf8") + (truncated ? "\n[output truncated]" : "") };
}
