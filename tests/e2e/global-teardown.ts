// Removes the run's DATA_DIR (SQLite file, generated session secret) unless E2E_KEEP_DATA is set.
import { rmSync } from "node:fs";

export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA) return;
  rmSync(dir, { recursive: true, force: true });
}
