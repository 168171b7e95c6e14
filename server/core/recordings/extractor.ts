// Rebuilding the commands typed in a recording (compare.ts) costs time in proportion to what the
// player typed, up to a megabyte of it: never on the main thread, which serves every page, API
// call, SSH session and the worker's rounds. One worker thread, started on first
// use, takes the jobs one at a time; each has a time budget, and a job over it ends the thread
// (a fresh one takes the next job) and comes back empty and cut. The queue is bounded: past it a
// job is refused at once (null), and the caller leaves the row to be done later.
import { Worker } from "node:worker_threads";
import type { Extracted } from "./compare.ts";
import type { ExtractAnswer } from "./extract-thread.ts";

/** Wall time one recording may take in the worker (the work bound in compare.ts keeps a
 *  megabyte well under 100 ms; the rest is room for a busy machine). */
export const EXTRACT_BUDGET_MS = 5000;
/** Jobs waiting at most; more are refused until the queue drains. */
export const EXTRACT_QUEUE = 1000;
/** A worker that is not ready this long after its start has failed. */
const START_MS = 30_000;

export interface CommandExtractor {
  /** The commands typed in the recording file `file` (absolute); null when it could not be done
   *  now (queue full, the worker failed), to be tried again later. */
  extract(file: string): Promise<Extracted | null>;
  close(): Promise<void>;
}

interface Job {
  id: number;
  file: string;
  resolve(r: Extracted | null): void;
}

export function createCommandExtractor({
  budgetMs = EXTRACT_BUDGET_MS,
  maxQueue = EXTRACT_QUEUE,
  log,
}: {
  budgetMs?: number;
  maxQueue?: number;
  log: { warn(message: string, extra?: unknown): void };
}): CommandExtractor {
  const queue: Job[] = [];
  let worker: Worker | null = null;
  let ready = false;
  let current: { job: Job; timer: NodeJS.Timeout } | null = null;
  let startTimer: NodeJS.Timeout | null = null;
  let seq = 0;
  let closed = false;

  function stop(w: Worker) {
    if (worker !== w) return;
    worker = null;
    ready = false;
    if (startTimer) clearTimeout(startTimer);
    void w.terminate().catch(() => {});
  }

  function finish(result: Extracted | null) {
    if (!current) return;
    clearTimeout(current.timer);
    current.job.resolve(result);
    current = null;
  }

  function spawn() {
    const w = new Worker(new URL("./extract-boot.mjs", import.meta.url), {
      workerData: { entry: new URL("./extract-thread.ts", import.meta.url).href },
      // A job holds one file (at most 2 MiB read) and its events: far below this.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    w.unref();
    worker = w;
    startTimer = setTimeout(() => {
      log.warn(`recordings: the command extractor did not start within ${START_MS / 1000} s`);
      fail(w);
    }, START_MS);
    startTimer.unref();
    w.on("message", (m: "ready" | ExtractAnswer) => {
      if (worker !== w) return;
      if (m === "ready") {
        ready = true;
        if (startTimer) clearTimeout(startTimer);
        return pump();
      }
      if (!current || current.job.id !== m.id) return;
      if ("error" in m) log.warn(`recordings: extracting commands failed: ${m.error}`);
      finish("result" in m ? m.result : null);
      pump();
    });
    w.on("error", (e) => {
      log.warn(`recordings: the command extractor failed: ${e.message}`);
      fail(w);
    });
    w.on("exit", () => fail(w));
  }

  /** The worker is gone: the job in it and, if it never got ready, every waiting job get null
   *  (a worker that cannot start would fail them all the same). */
  function fail(w: Worker) {
    if (worker !== w) return;
    const wasReady = ready;
    stop(w);
    finish(null);
    if (!wasReady) for (const job of queue.splice(0)) job.resolve(null);
    pump();
  }

  function pump() {
    if (closed || current || !queue.length) return;
    if (!worker) return spawn();
    if (!ready) return;
    const job = queue.shift()!;
    const w = worker;
    const timer = setTimeout(() => {
      log.warn(`recordings: extracting commands from ${job.file} took more than ${budgetMs} ms: stopped, kept empty`);
      finish({ commands: [], cut: true });
      stop(w);
      pump();
    }, budgetMs);
    timer.unref();
    current = { job, timer };
    w.postMessage({ id: job.id, file: job.file });
  }

  return {
    extract(file) {
      if (closed || queue.length >= maxQueue) return Promise.resolve(null);
      return new Promise((resolve) => {
        queue.push({ id: ++seq, file, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.resolve(null);
      finish(null);
      if (worker) {
        const w = worker;
        stop(w);
        await w.terminate().catch(() => {});
      }
    },
  };
}
