// The worker thread of extractor.ts: reads one recording file at a time and answers with the
// commands typed in it (compare.ts). It imports nothing but compare.ts and Node, so it starts
// fast and shares nothing with the main thread.
import { open } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { type Extracted, extractCommands } from "./compare.ts";

/** Read at most this much of a file: the recorder writes 1 MiB at most; anything larger was not
 *  written by it, and its start is enough. */
const READ_BYTES = 2 * 1024 * 1024;

export interface ExtractJob {
  id: number;
  file: string;
}
export type ExtractAnswer = { id: number; result: Extracted } | { id: number; error: string };

async function readStart(file: string): Promise<string> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(READ_BYTES);
    const { bytesRead } = await fh.read(buf, 0, READ_BYTES, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await fh.close();
  }
}

const port = parentPort!;
port.on("message", (job: ExtractJob) => {
  readStart(job.file).then(
    (text) => port.postMessage({ id: job.id, result: extractCommands(text) } satisfies ExtractAnswer),
    (e: NodeJS.ErrnoException) =>
      // A file that is gone has no commands; any other failure is said.
      port.postMessage((e.code === "ENOENT" ? { id: job.id, result: { commands: [], cut: false } } : { id: job.id, error: e.message }) satisfies ExtractAnswer),
  );
});
port.postMessage("ready");
