// bench/http.ts's faultline process: server.ts's startServer on a copy of the web build (the
// shared build/ may be rebuilt by a test run while the bench measures).
//   tsx bench/http-server.ts <build dir>     (configuration from the environment, as server.ts)
import { startServer } from "../server.ts";
import { loadConfig } from "#server/config.ts";

const running = await startServer(loadConfig(), { buildDir: process.argv[2] });
for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void running.close().then(() => process.exit(0)));
