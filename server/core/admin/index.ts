// The admin console's services in one place (users, challenges, system figures, settings), and
// the rules the console adds to starting a deployment: maintenance mode, hidden challenges, the
// platform-wide cap. Those are admission steps (deployments/admission.ts) handed to the
// deployments service by the composition root (server/platform.ts).
import type { Db } from "#server/db/index.ts";
import { forbidden, notFound, unavailable } from "#server/core/errors.ts";
import type { Audit } from "#server/core/audit.ts";
import { fullMessage } from "#server/core/capacity.ts";
import { nowSeconds } from "#server/db/index.ts";
import { ACTIVE } from "#server/core/deployments/model.ts";
import type { AdmissionStep, Applicant, CapacityRequest, PoolHold } from "#server/core/deployments/deps.ts";
import { type AdminChallengesDeps, createAdminChallenges, visibleTo } from "./challenges.ts";
import { MAINTENANCE_DETAIL, type Settings, type SystemSettings } from "./settings.ts";
import { createSystemFigures } from "./system.ts";
import { type Actor, type AdminUsersDeps, createAdminUsers } from "./users.ts";

export interface AdminDeps {
  db: Db;
  audit: Audit;
  settings: Settings;
  dataDir: string;
  users: Omit<AdminUsersDeps, "db" | "audit">;
  challenges: Omit<AdminChallengesDeps, "db" | "audit">;
}

export const ADMIN_ONLY = "Admin access required";

export function createAdmin(deps: AdminDeps) {
  const { db, audit, settings } = deps;
  return {
    /** The signed-in user as an acting admin, or 403 (the same answer on every admin route). */
    async actor(userId: string): Promise<Actor> {
      const u = await db.selectFrom("users").select(["id", "username", "is_admin"]).where("id", "=", userId).executeTakeFirst();
      if (!u || u.is_admin !== 1) throw forbidden(ADMIN_ONLY);
      return { id: u.id, username: u.username };
    },
    users: createAdminUsers({ db, audit, ...deps.users }),
    challenges: createAdminChallenges({ db, audit, ...deps.challenges }),
    system: createSystemFigures({ db, dataDir: deps.dataDir }),
    settings: {
      current: () => settings.current(),
      maxTimeoutMinutes: settings.maxTimeoutMinutes,
      async update(actor: Actor, values: Partial<SystemSettings>) {
        const before = settings.current();
        const after = await settings.update(values);
        const changed = Object.fromEntries(
          (Object.keys(after) as (keyof SystemSettings)[]).filter((k) => after[k] !== before[k]).map((k) => [k, { from: before[k], to: after[k] }]),
        );
        await audit.record({ action: "admin.settings", actorId: actor.id, detail: changed });
        return after;
      },
    },
  };
}
export type Admin = ReturnType<typeof createAdmin>;

/** What anyone may know about the platform's state: the global banner shows it. */
export function publicNotice(settings: Settings) {
  const s = settings.current();
  return { maintenance: s.maintenance_mode, message: s.maintenance_mode ? MAINTENANCE_DETAIL : null };
}

/** The console's start rules, as admission steps for the deployments service. */
export function adminAdmission(db: Db, settings: Settings) {
  /** Maintenance: no new deployment (running ones go on), for admins too. */
  const notInMaintenance: AdmissionStep<Applicant> = () => {
    if (settings.current().maintenance_mode) throw unavailable(MAINTENANCE_DETAIL);
  };
  /** A hidden challenge is started by admins only; to anyone else it does not exist. */
  const visibleOrAdmin: AdmissionStep<Applicant> = async ({ userId, challenge }) => {
    if (!(await visibleTo(db, userId, challenge.id))) throw notFound("Challenge not found");
  };
  /** The platform-wide cap on deployments running at once (checked under the start locks). */
  const withinPlatformCap: AdmissionStep<CapacityRequest> = async () => {
    const cap = settings.current().max_concurrent_deployments;
    const running = await db.selectFrom("deployments").select("expires_at").where("status", "in", ACTIVE).execute();
    if (running.length < cap) return;
    throw unavailable(
      fullMessage(
        running.map((d) => d.expires_at),
        nowSeconds(),
      ),
    );
  };
  /** The same rules for the warm pool (deployments/pool.ts): maintenance stops it, hidden
   *  challenges get none. */
  const poolHold = async (): Promise<PoolHold> => ({
    maintenance: settings.current().maintenance_mode,
    hidden: new Set((await db.selectFrom("hidden_challenges").select("challenge_id").execute()).map((r) => r.challenge_id)),
  });
  return { applicant: [notInMaintenance, visibleOrAdmin], capacity: [withinPlatformCap], poolHold };
}
