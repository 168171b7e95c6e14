// The bare app's server: Express with @react-router/express and express.static, the same kind
// of Node server as faultline's server.ts, nothing else.  tsx bench/bare/server.ts <port>
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";

const dir = new URL(".", import.meta.url).pathname;
const build = (await import(`${dir}build/server/index.js`)) as ServerBuild;
const app = express();
app.disable("x-powered-by");
app.use("/assets", express.static(`${dir}build/client/assets`, { immutable: true, maxAge: "1y" }));
app.use(express.static(`${dir}build/client`, { maxAge: "1h", index: false }));
app.use(createRequestHandler({ build }));
const port = Number(process.argv[2] ?? 3300);
app.listen(port, "127.0.0.1", () => console.log(`bare app on http://127.0.0.1:${port}`));
// Exit cleanly on a signal, so `node --cpu-prof` writes its profile.
for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => process.exit(0));
