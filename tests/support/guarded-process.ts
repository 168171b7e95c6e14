// A process with the process guard (server/process-guard.ts) installed and one mistake of the
// kind named in argv[2], for tests/integration/process-guard.test.ts. It prints what happens on
// stdout; the log goes to stderr. The orderly stop takes argv[3] ms ("never": it never ends).
import { createLogger } from "#server/logger.ts";
import { installProcessGuard } from "#server/process-guard.ts";
import { runInRequest } from "#server/http/request-context.ts";

const [kind = "", stopMs = "0"] = process.argv.slice(2);
const log = createLogger("error");
installProcessGuard({
  log,
  shutdownMs: 200,
  shutdown: () => {
    console.log("stopping");
    return stopMs === "never" ? new Promise(() => {}) : new Promise((r) => setTimeout(r, Number(stopMs)));
  },
});
const inRequest = (fn: () => void) => runInRequest({ id: "req-7" }, fn);

if (kind === "rejection") inRequest(() => void Promise.reject(new Error("nobody awaited me")));
if (kind === "request")
  inRequest(() =>
    setTimeout(() => {
      throw new Error("a request's timer threw");
    }, 0),
  );
if (kind === "outside")
  setTimeout(() => {
    throw new Error("the worker's timer threw");
  }, 0);
// Still serving? Say so a little later, then end normally.
setTimeout(() => {
  console.log("still serving");
  process.exit(0);
}, 600);
