// Removes the run's DATA_DIR (SQLite file, generated session secret) unless E2E_KEEP_DATA is set.
// The servers may still be writing below it while they stop (the warm pool's skeleton cache), so
// removal retries, and a leftover temp folder only warns: it must not fail a run whose tests passed.
import { rmSync } from "node:fs";

export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA) return;
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`could not remove ${dir}: ${(e as Error).message}`);
  }
}
