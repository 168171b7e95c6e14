// The command extractor runs in a worker thread with a time budget: the real
// thread, real files. A job over its budget is stopped (the thread ended, the job empty and cut)
// and the next job is served by a fresh thread; a file that is gone has no commands; the queue
// is bounded.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCommandExtractor } from "./extractor.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-extract-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cast = (name: string, ...inputs: string[]) => {
  const file = join(dir, name);
  writeFileSync(file, ['{"version":2}', ...inputs.map((i) => JSON.stringify([0.1, "i", i]))].join("\n") + "\n");
  return file;
};
const warnings: string[] = [];
const log = { warn: (m: string) => void warnings.push(m) };

describe("command extractor", () => {
  it("extracts in a worker thread, one job after another", async () => {
    const x = createCommandExtractor({ log });
    try {
      const [a, b] = await Promise.all([x.extract(cast("a.cast", "ls\r")), x.extract(cast("b.cast", "pwd\rid\r"))]);
      expect(a).toEqual({ commands: ["ls"], cut: false });
      expect(b).toEqual({ commands: ["pwd", "id"], cut: false });
      expect(await x.extract(join(dir, "missing.cast"))).toEqual({ commands: [], cut: false });
    } finally {
      await x.close();
    }
  }, 60_000);

  it("a job over its time budget comes back empty and cut (the thread ended mid-job, never the main one)", async () => {
    // A budget no real extraction fits in: the thread is ended mid-job.
    const x = createCommandExtractor({ log, budgetMs: 1 });
    try {
      const big = cast(
        "big.cast",
        "a".repeat(300_000) + "\r",
        ..."x"
          .repeat(200)
          .split("")
          .map(() => "\x1b[A\x1b[B".repeat(100)),
      );
      expect(await x.extract(big)).toEqual({ commands: [], cut: true });
      expect(warnings.join("\n")).toMatch(/took more than 1 ms: stopped/);
    } finally {
      await x.close();
    }
  }, 60_000);

  it("the queue is bounded: past it a job is refused at once, to be done later", async () => {
    const x = createCommandExtractor({ log, maxQueue: 2 });
    try {
      const file = cast("d.cast", "date\r");
      const jobs = [x.extract(file), x.extract(file), x.extract(file)];
      expect(await jobs[2]).toBeNull();
      expect(await jobs[0]).toEqual({ commands: ["date"], cut: false });
    } finally {
      await x.close();
    }
  }, 60_000);
});
