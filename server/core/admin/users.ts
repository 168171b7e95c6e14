// The admin console's users: search and paging, verify, make or revoke admin, set a plan, disable
// and enable, and adding an account. Every change is written to the audit log with the admin
// who made it. Disabling ends the account's presence everywhere at once: its refresh tokens are
// revoked, its web sessions deleted (which closes its live sockets, server/http/live.ts), its
// deployments terminated; from then on sign-in is refused (accounts) and its access tokens are
// refused (tokens.ts), both by the `disabled_users` row.
import { sql, type SqlBool } from "kysely";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Plan } from "#server/db/schema.ts";
import type { Audit } from "#server/core/audit.ts";
import { likePattern } from "#server/db/search.ts";
import { badRequest, conflict, notFound } from "#server/core/errors.ts";
import { hashPassword } from "#server/core/auth/passwords.ts";
import { newUserRow, type UserRow } from "#server/core/users.ts";
import { ACTIVE } from "#server/core/deployments/model.ts";
import type { AdminUserView, AdminUsersPage } from "#shared/contract/admin.ts";

export const USERS_PAGE_SIZE = 20;
export const ACCOUNT_DISABLED = "This account has been disabled. Contact the administrators if you think this is a mistake.";

/** Who acts: the signed-in admin. */
export interface Actor {
  id: string;
  username: string;
}

export type { AdminUserView };

export interface AdminUsersDeps {
  db: Db;
  audit: Audit;
  tokens: { revokeAllForUser(userId: string): Promise<void> };
  webSessions: { destroyAllForUser(userId: string): Promise<void> };
  /** Ends every active deployment of the user (deployments.terminateAllForUser); how many. */
  terminateAll(userId: string, reason: string): Promise<number>;
  /** Sends the verification mail through the accounts' mail path. */
  sendVerification(u: UserRow): Promise<void>;
  /** Whether a username is reserved (accounts.usernameReserved: staff words, challenge ids). */
  usernameReserved?: (name: string) => boolean;
  /** Ends the user's subscription at the payment provider at the end of its paid period
   *  (server/core/billing.ts: endFor); what it did, for the audit entry. */
  endBilling?: (userId: string) => Promise<string>;
  /** The plans service's setter (server/core/plans.ts), when plans exist. */
  setPlan?: (userId: string, plan: Plan, until: number | null) => Promise<unknown>;
  /** Turns the user's 2FA off and mails them (accounts' resetTwoFactorByAdmin); false when off. */
  resetTwoFactor?: (userId: string) => Promise<boolean>;
}

export function createAdminUsers(deps: AdminUsersDeps) {
  const { db, audit } = deps;

  async function mustExist(id: string): Promise<UserRow> {
    const u = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    if (!u) throw notFound("User not found");
    return u;
  }

  async function viewOf(id: string): Promise<AdminUserView> {
    const page = await list({ id });
    if (!page.users[0]) throw notFound("User not found");
    return page.users[0];
  }

  async function list(q: { search?: string; page?: number; limit?: number; id?: string } = {}): Promise<AdminUsersPage> {
    const limit = q.limit ?? USERS_PAGE_SIZE;
    const page = Math.max(1, q.page ?? 1);
    let base = db.selectFrom("users as u");
    const search = q.search?.trim();
    if (search) {
      const pattern = likePattern(search);
      base = base.where((eb) => eb.or([sql<SqlBool>`lower(u.username) like ${pattern} escape '\\'`, sql<SqlBool>`lower(u.email) like ${pattern} escape '\\'`]));
    }
    if (q.id) base = base.where("u.id", "=", q.id);
    const [rows, count] = await Promise.all([
      base
        .select([
          "u.id",
          "u.username",
          "u.email",
          "u.is_admin",
          "u.is_verified",
          "u.totp_enabled",
          "u.oauth_provider",
          "u.plan",
          "u.plan_until",
          "u.created_at",
        ])
        .select((eb) => [
          eb.selectFrom("disabled_users as d").whereRef("d.user_id", "=", "u.id").select("d.disabled_at").as("disabled_at"),
          eb
            .selectFrom("deployments as dep")
            .whereRef("dep.user_id", "=", "u.id")
            .where("dep.status", "in", ACTIVE)
            .select((e) => e.fn.countAll<number>().as("n"))
            .as("active"),
        ])
        .orderBy("u.created_at", "desc")
        .orderBy("u.username")
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const total = Number(count.n);
    return {
      users: rows.map((r): AdminUserView => ({
        id: r.id,
        username: r.username,
        email: r.email,
        is_admin: r.is_admin === 1,
        is_verified: r.is_verified === 1,
        disabled: r.disabled_at !== null && r.disabled_at !== undefined,
        totp_enabled: r.totp_enabled === 1,
        oauth_provider: r.oauth_provider,
        plan: r.plan,
        plan_until: r.plan_until,
        created_at: Number(r.created_at),
        active_deployments: Number(r.active ?? 0),
      })),
      total,
      page,
      pages: Math.max(1, Math.ceil(total / limit)),
    };
  }

  const setFlag = (id: string, values: Partial<Pick<UserRow, "is_admin" | "is_verified">>) =>
    db
      .updateTable("users")
      .set({ ...values, updated_at: nowSeconds() })
      .where("id", "=", id)
      .execute();

  return {
    list,
    get: viewOf,
    /** Whether plans can be set here (the plans service is wired in). */
    plansEnabled: deps.setPlan !== undefined,

    /** A new password account, unverified; the verification mail goes out as at registration. */
    async create(actor: Actor, input: { username: string; email: string; password: string }) {
      const email = input.email.toLowerCase();
      const taken = await db
        .selectFrom("users")
        .select("id")
        .where((eb) => eb.or([eb(eb.fn("lower", ["username"]), "=", input.username.toLowerCase()), eb("email", "=", email)]))
        .executeTakeFirst();
      // An admin may know which addresses have accounts: the plain answer.
      if (taken || deps.usernameReserved?.(input.username)) throw conflict("Username or email already exists");
      const row = newUserRow({ username: input.username, email, password_hash: await hashPassword(input.password) });
      const id = row.id;
      try {
        await db.insertInto("users").values(row).execute();
      } catch (e) {
        if (/unique|duplicate/i.test(String(e))) throw conflict("Username or email already exists");
        throw e;
      }
      await deps.sendVerification(await mustExist(id));
      await audit.record({ action: "admin.user_create", actorId: actor.id, target: { type: "user", id }, detail: { email } });
      return viewOf(id);
    },

    async verify(actor: Actor, id: string) {
      const u = await mustExist(id);
      await setFlag(id, { is_verified: 1 });
      // A pending link would now verify nothing: remove it.
      await db.deleteFrom("verifications").where("user_id", "=", id).where("purpose", "=", "email").execute();
      await audit.record({ action: "admin.user_verify", actorId: actor.id, target: { type: "user", id: u.id } });
      return viewOf(id);
    },

    async setAdmin(actor: Actor, id: string, isAdmin: boolean) {
      const u = await mustExist(id);
      // The last way back in must not be closed from the console by mistake.
      if (!isAdmin && id === actor.id) throw badRequest("You cannot revoke your own admin rights.");
      await setFlag(id, { is_admin: isAdmin ? 1 : 0 });
      await audit.record({ action: "admin.user_admin", actorId: actor.id, target: { type: "user", id: u.id }, detail: { is_admin: isAdmin } });
      return viewOf(id);
    },

    async setPlan(actor: Actor, id: string, plan: Plan, until: number | null) {
      if (!deps.setPlan) throw badRequest("Plans are not available on this installation.");
      const u = await mustExist(id);
      await deps.setPlan(id, plan, until);
      await audit.record({ action: "admin.user_plan", actorId: actor.id, target: { type: "user", id: u.id }, detail: { plan, until } });
      return viewOf(id);
    },

    async disable(actor: Actor, id: string) {
      const u = await mustExist(id);
      if (id === actor.id) throw badRequest("You cannot disable your own account.");
      // The row first: from this moment no sign-in succeeds and no access token is accepted, so
      // nothing below can be undone by a request racing it.
      await db
        .insertInto("disabled_users")
        .values({ user_id: id, disabled_at: nowSeconds() })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
      await deps.tokens.revokeAllForUser(id);
      await deps.webSessions.destroyAllForUser(id);
      const terminated = await deps.terminateAll(id, "The account was disabled by an administrator.");
      // Its subscription stops renewing (the paid period runs out; enabling lets its owner keep
      // it). The provider being down must not stop a disable: the entry says so instead.
      const subscription = deps.endBilling ? await deps.endBilling(id).catch(() => "could not be cancelled: the payment provider did not answer") : "none";
      await audit.record({
        action: "admin.user_disable",
        actorId: actor.id,
        target: { type: "user", id: u.id },
        detail: { deployments_terminated: terminated, subscription },
      });
      return viewOf(id);
    },

    /** For a user who lost their authenticator and recovery codes: 2FA off at once, audited. */
    async resetTwoFactor(actor: Actor, id: string) {
      const u = await mustExist(id);
      if (!deps.resetTwoFactor) throw badRequest("Two-factor resets are not available on this installation.");
      if (!(await deps.resetTwoFactor(id))) throw conflict("Two-factor authentication is not enabled for this user.");
      await audit.record({ action: "admin.user_2fa_reset", actorId: actor.id, target: { type: "user", id: u.id } });
      return viewOf(id);
    },

    async enable(actor: Actor, id: string) {
      const u = await mustExist(id);
      await db.deleteFrom("disabled_users").where("user_id", "=", id).execute();
      await audit.record({ action: "admin.user_enable", actorId: actor.id, target: { type: "user", id: u.id } });
      return viewOf(id);
    },
  };
}
export type AdminUsers = ReturnType<typeof createAdminUsers>;
