// What an error nobody caught does (server/process-guard.ts, docs/decisions/015-unexpected-errors.md),
// in real processes: an unhandled rejection and an exception thrown out of a request's own
// callback are logged with the request's id and the process keeps serving; an exception with no
// request to blame stops the process in order and exits with status 1 (for the supervisor to
// start it again), within the time allowed even when the orderly stop hangs.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

function run(kind: string, stopMs = "0") {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/guarded-process.ts", kind, stopMs], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}

describe("the process guard", () => {
  it("an unhandled rejection is logged with its request id; the process keeps serving", async () => {
    const r = await run("rejection");
    expect(r.stderr).toMatch(/ERROR \[req req-7\] unhandled promise rejection \(the process keeps serving\) Error: nobody awaited me/);
    expect(r.stdout).toBe("still serving\n");
    expect(r.code).toBe(0);
  });

  it("an exception out of a request's callback is logged with its id; the process keeps serving", async () => {
    const r = await run("request");
    expect(r.stderr).toMatch(/ERROR \[req req-7\] uncaught exception in a request \(the process keeps serving\) Error: a request's timer threw/);
    expect(r.stdout).toBe("still serving\n");
    expect(r.code).toBe(0);
  });

  it("an exception with no request to blame: stopped in order, exit status 1", async () => {
    const r = await run("outside", "0");
    expect(r.stderr).toMatch(/ERROR uncaught exception outside any request: stopping, exit status 1/);
    expect(r.stderr).toContain("the worker's timer threw");
    expect(r.stdout).toBe("stopping\n");
    expect(r.code).toBe(1);
  });

  it("exits with status 1 in the time allowed when the orderly stop hangs", async () => {
    const r = await run("outside", "never");
    expect(r.stdout).toBe("stopping\n");
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(3000);
  });
});
