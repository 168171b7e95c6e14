// What an error nobody caught does to the process (docs/decisions/015-unexpected-errors.md).
// Inputs are handled where they arrive (every listener of a stranger's socket is written not to
// throw, and the fuzz tests hold it so); this is the last line, for the mistake we did not see:
// - a rejected promise nobody awaited: its work failed, and nothing was left half done by the
//   rejection going unheard. Logged (with the request id when it belongs to a request) and
//   counted; the process keeps serving.
// - an exception thrown out of a request's own callback (a timer or continuation the request
//   scheduled: its id is known): logged and counted; the process keeps serving. What the throw
//   left half done is that request's.
// - an exception with no request to blame (a timer of the worker, the database's connection, a
//   socket's event): we cannot tell what it left half done (a lock, a counter, a pool). Logged,
//   then the server stops as on SIGTERM (SSH users are told it restarts) and exits with status 1
//   within SHUTDOWN_MS; the supervisor (compose's restart policy, systemd's Restart=always,
//   scripts/up.sh's loop) starts it again.
import { currentRequestId } from "./http/request-context.ts";

/** How long the orderly stop may take before the process exits anyway. */
export const SHUTDOWN_MS = 5000;

export interface ProcessGuardDeps {
  log: { error(message: string, extra?: unknown): void };
  metrics?: { observeUncaught(kind: "exception" | "rejection", outcome: "kept" | "exit"): void };
  /** The orderly stop (server.ts: close the gateway, the listeners, the database). */
  shutdown: () => Promise<unknown>;
  /** Tests pass their own. */
  exit?: (code: number) => void;
  shutdownMs?: number;
  proc?: Pick<NodeJS.Process, "on" | "off">;
}

export function installProcessGuard({
  log,
  metrics,
  shutdown,
  exit = (code) => process.exit(code),
  shutdownMs = SHUTDOWN_MS,
  proc = process,
}: ProcessGuardDeps) {
  let stopping = false;

  const onRejection = (reason: unknown) => {
    log.error("unhandled promise rejection (the process keeps serving)", reason instanceof Error ? reason : new Error(String(reason)));
    metrics?.observeUncaught("rejection", "kept");
  };

  const onException = (error: Error) => {
    if (stopping) {
      // A second one while stopping: no more orderly steps.
      log.error("uncaught exception while stopping: exiting now", error);
      return exit(1);
    }
    if (currentRequestId() !== undefined) {
      log.error("uncaught exception in a request (the process keeps serving)", error);
      metrics?.observeUncaught("exception", "kept");
      return;
    }
    stopping = true;
    log.error(`uncaught exception outside any request: stopping, exit status 1 within ${shutdownMs} ms (the supervisor starts it again)`, error);
    metrics?.observeUncaught("exception", "exit");
    const timer = setTimeout(() => exit(1), shutdownMs);
    timer.unref();
    shutdown().then(
      () => exit(1),
      (e) => {
        log.error("stopping after an uncaught exception failed", e);
        exit(1);
      },
    );
  };

  proc.on("unhandledRejection", onRejection);
  proc.on("uncaughtException", onException);
  return () => {
    proc.off("unhandledRejection", onRejection);
    proc.off("uncaughtException", onException);
  };
}
