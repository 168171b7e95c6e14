// The admin console's System figures, measured when asked: the host's CPU (busy share over a
// short sample of the kernel's counters), memory, and the storage of DATA_DIR's file system;
// activeUsers (accounts with a sign-in or a token refresh in the last 15 minutes: the web
// refreshes a signed-in browser's access token every ~10 minutes, so an open tab counts) and
// activeSessions (deployments running now).
import { statfs } from "node:fs/promises";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { ACTIVE } from "#server/core/deployments/model.ts";
import type { SystemFigures } from "#shared/contract/admin.ts";

export const ACTIVE_USER_WINDOW_SECONDS = 15 * 60;
const CPU_SAMPLE_MS = 250;

export type { SystemFigures };

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

async function cpuPercent(): Promise<number> {
  const a = cpuTimes();
  await new Promise((r) => setTimeout(r, CPU_SAMPLE_MS));
  const b = cpuTimes();
  const total = b.total - a.total;
  return total > 0 ? percent(total - (b.idle - a.idle), total) : 0;
}

export function createSystemFigures({ db, dataDir }: { db: Db; dataDir: string }) {
  async function activeUsers(): Promise<number> {
    const since = nowSeconds() - ACTIVE_USER_WINDOW_SECONDS;
    const [tokens, sessions] = await Promise.all([
      db.selectFrom("refresh_tokens").select("user_id").distinct().where("created_at", ">=", since).execute(),
      db.selectFrom("web_sessions").select("user_id").distinct().where("created_at", ">=", since).where("user_id", "is not", null).execute(),
    ]);
    return new Set([...tokens.map((t) => t.user_id), ...sessions.map((s) => s.user_id)]).size;
  }

  return {
    async measure(): Promise<SystemFigures> {
      const [cpu, fs, users, running] = await Promise.all([
        cpuPercent(),
        statfs(dataDir),
        activeUsers(),
        db
          .selectFrom("deployments")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "in", ACTIVE)
          .executeTakeFirstOrThrow(),
      ]);
      const total = totalmem();
      const used = total - freemem();
      const fsTotal = fs.blocks * fs.bsize;
      const fsUsed = (fs.blocks - fs.bfree) * fs.bsize;
      const [l1, l5, l15] = loadavg();
      return {
        cpu: { percent: cpu, cores: cpus().length, load: [l1 ?? 0, l5 ?? 0, l15 ?? 0].map((x) => Math.round(x * 100) / 100) as [number, number, number] },
        memory: { percent: percent(used, total), used_bytes: used, total_bytes: total },
        storage: { percent: percent(fsUsed, fsTotal), used_bytes: fsUsed, total_bytes: fsTotal, path: dataDir },
        activeUsers: users,
        activeSessions: Number(running.n),
        measured_at: nowSeconds(),
      };
    },
  };
}
export type SystemFiguresService = ReturnType<typeof createSystemFigures>;
