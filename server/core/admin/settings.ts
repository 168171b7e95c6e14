// Settings an admin changes while the platform runs, kept in the `settings` table: how long a new
// deployment lasts (and each extension adds), how many deployments may run at once on the whole
// platform, and maintenance mode (no new deployments; running ones continue). The environment
// (SESSION_DURATION_MINUTES) gives the defaults until an admin saves a value.
//
// Read on every start, so they are kept in memory: loaded once at start and replaced on each
// save. With several replicas (server/db/cluster.ts) a save is announced (`onSaved`) and the
// others `reload`.
import { z } from "zod";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { SystemSettings } from "#shared/contract/admin.ts";

export { SETTING_LIMITS } from "#shared/contract/admin.ts";

/** The platform-wide cap's default figure. */
export const DEFAULT_MAX_CONCURRENT = 100;

export const MAINTENANCE_DETAIL = "faultline is in maintenance mode: new deployments are paused. Deployments already running continue. Please try again later.";

export type { SystemSettings };

const stored = z.object({
  session_timeout_minutes: z.number().int().positive().optional(),
  max_concurrent_deployments: z.number().int().positive().optional(),
  maintenance_mode: z.boolean().optional(),
});

export interface SettingsDeps {
  db: Db;
  /** SESSION_DURATION_MINUTES, in seconds. */
  defaultDurationSeconds: number;
  /** MAX_DEPLOYMENT_MINUTES, in seconds: the deployment duration cannot exceed it. */
  maxLifetimeSeconds: number;
  /** Called after each save (the platform tells the other replicas, which reload). */
  onSaved?: () => void;
}

const KEY = "system";

export async function createSettings({ db, defaultDurationSeconds, maxLifetimeSeconds, onSaved }: SettingsDeps) {
  const defaults: SystemSettings = {
    session_timeout_minutes: Math.round(defaultDurationSeconds / 60),
    max_concurrent_deployments: DEFAULT_MAX_CONCURRENT,
    maintenance_mode: false,
  };
  const maxTimeoutMinutes = Math.floor(maxLifetimeSeconds / 60);

  async function read(): Promise<SystemSettings> {
    const row = await db.selectFrom("settings").select("value").where("key", "=", KEY).executeTakeFirst();
    if (!row) return { ...defaults };
    let parsed: z.infer<typeof stored> = {};
    try {
      parsed = stored.parse(JSON.parse(row.value));
    } catch {
      // A value written by hand that does not parse: the defaults, rather than a platform that
      // cannot start.
    }
    return { ...defaults, ...parsed };
  }

  let current = await read();

  return {
    /** The settings in force (in memory: cheap enough for every start). */
    current: (): SystemSettings => ({ ...current }),
    /** Seconds a new deployment lasts, and an extension adds. */
    durationSeconds: () => current.session_timeout_minutes * 60,
    maxTimeoutMinutes,
    /** Saves the given values (the others stay); returns what is in force now. */
    async update(values: Partial<SystemSettings>): Promise<SystemSettings> {
      const next: SystemSettings = { ...current, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) };
      next.session_timeout_minutes = Math.min(next.session_timeout_minutes, maxTimeoutMinutes);
      const value = JSON.stringify(next);
      const now = nowSeconds();
      await db
        .insertInto("settings")
        .values({ key: KEY, value, updated_at: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
        .execute();
      current = next;
      onSaved?.();
      return { ...current };
    },
    /** Reads them again (another replica saved). */
    async reload() {
      current = await read();
    },
  };
}
export type Settings = Awaited<ReturnType<typeof createSettings>>;
