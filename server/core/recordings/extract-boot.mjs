// The command extractor's worker thread starts here (extractor.ts): a worker's entry must be
// JavaScript Node can load by itself, and the server's modules are TypeScript run through tsx,
// whose loader does not reach worker threads on Node 20. This loads the TypeScript entry with
// tsx's own API, in this thread.
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

await tsImport(workerData.entry, import.meta.url);
