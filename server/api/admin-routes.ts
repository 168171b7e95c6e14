// The admin console's API under /api/v1/admin/...: transport only. Every route first checks that
// the caller is signed in (401) and an admin (403, the same answer for every admin route, so
// which routes exist is no secret worth hiding but nothing is done for a non-admin), takes its
// input parsed by its operation (shared/contract/admin-operations.ts) and calls one service of
// server/core/admin. Plus one public read, /system/notice, for the global banner (maintenance mode).
import type { z } from "zod";
import { auditQuery } from "#shared/contract/admin-operations.ts";
import { operations } from "#shared/contract/operations.ts";
import { AUDIT_ACTIONS, type Audit, type AuditFilter } from "#server/core/audit.ts";
import type { Admin } from "#server/core/admin/index.ts";
import { SETTING_LIMITS } from "#server/core/admin/settings.ts";
import type { Actor } from "#server/core/admin/users.ts";
import { badRequest } from "#server/core/errors.ts";
import type { BaseCtx, Router } from "./router.ts";

export interface AdminRoutesDeps {
  admin: Admin;
  audit: Audit;
  /** Public state for the global banner. */
  notice(): { maintenance: boolean; message: string | null };
  userId(c: BaseCtx): Promise<string>;
}

export function adminRoutes(r: Router, { admin, audit, notice, userId }: AdminRoutesDeps) {
  /** The signed-in admin, or 401 (not signed in) / 403 (not an admin). */
  const adminActor = async (c: BaseCtx): Promise<Actor> => admin.actor(await userId(c));
  const auditFilter = (q: z.output<typeof auditQuery>): AuditFilter => ({ action: q.action, actor: q.actor, user: q.user, from: q.from, to: q.to });

  r.handle(operations.getSystemNotice, async () => notice());

  // Users
  r.handle(operations.adminListUsers, async (c) => {
    await adminActor(c);
    return { ...(await admin.users.list(c.query)), plans_enabled: admin.users.plansEnabled };
  });
  r.handle(operations.adminCreateUser, async (c) =>
    c.reply(await admin.users.create(await adminActor(c), c.body), { headers: { "cache-control": "no-store" } }),
  );
  r.handle(operations.adminVerifyUser, async (c) => admin.users.verify(await adminActor(c), c.params.id));
  r.handle(operations.adminSetAdmin, async (c) => admin.users.setAdmin(await adminActor(c), c.params.id, c.body.is_admin));
  r.handle(operations.adminSetPlan, async (c) => admin.users.setPlan(await adminActor(c), c.params.id, c.body.plan, c.body.until));
  r.handle(operations.adminDisableUser, async (c) => admin.users.disable(await adminActor(c), c.params.id));
  r.handle(operations.adminResetTwoFactor, async (c) => admin.users.resetTwoFactor(await adminActor(c), c.params.id));
  r.handle(operations.adminEnableUser, async (c) => admin.users.enable(await adminActor(c), c.params.id));

  // Challenges ("reload" comes before /admin/challenges/:id/...: it is no challenge id).
  r.handle(operations.adminListChallenges, async (c) => {
    await adminActor(c);
    return { challenges: await admin.challenges.figures() };
  });
  r.handle(operations.adminReloadChallenges, async (c) => admin.challenges.reload(await adminActor(c)));
  r.handle(operations.adminSetChallengeVisibility, async (c) => admin.challenges.setHidden(await adminActor(c), c.params.id, c.body.hidden));

  // System
  r.handle(operations.adminGetSystem, async (c) => {
    await adminActor(c);
    return admin.system.measure();
  });
  r.handle(operations.adminGetSettings, async (c) => {
    await adminActor(c);
    return { ...admin.settings.current(), limits: { ...SETTING_LIMITS, sessionTimeoutMax: admin.settings.maxTimeoutMinutes } };
  });
  r.handle(operations.adminUpdateSettings, async (c) => {
    const actor = await adminActor(c);
    const body = c.body;
    if (body.session_timeout_minutes !== undefined && body.session_timeout_minutes > admin.settings.maxTimeoutMinutes) {
      throw badRequest(`session_timeout_minutes: must be at most ${admin.settings.maxTimeoutMinutes} (the longest a deployment may live)`);
    }
    return admin.settings.update(actor, body);
  });

  // Logs
  r.handle(operations.adminListAudit, async (c) => {
    await adminActor(c);
    const q = c.query;
    return { ...(await audit.list({ ...auditFilter(q), page: q.page, limit: q.limit })), actions: AUDIT_ACTIONS };
  });
  r.handle(operations.adminExportAudit, async (c) => {
    await adminActor(c);
    return new Response(audit.exportLines(auditFilter(c.query)), {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
    });
  });
}
