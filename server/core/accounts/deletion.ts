// Deleting an account: confirmed with the password (or a code from a 2FA factor another sign-in
// added over 24 hours ago, decision 017; an account with neither, from GitHub or Google, types its
// username), then its Stripe subscription is cancelled (first: if the provider cannot be reached
// nothing is deleted, rather than leave a subscription that charges an account no one can sign
// in to), its deployments end, its recordings' files go, every sign-in ends, the audit log
// forgets its addresses (its name was never stored there: entries are read with names joined by
// id), and the user row goes with everything that cascades from it (keys, tokens, submissions,
// solves and so the board, plans, recordings' rows, pending links).
import type { Message } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import type { Audit } from "#server/core/audit.ts";
import { badRequest, unauthorized } from "#server/core/errors.ts";
import type { TokenService } from "#server/core/auth/tokens.ts";
import type { WebSessions } from "#server/core/auth/web-sessions.ts";
import type { StepUp } from "./context.ts";
import type { Accounts } from "./index.ts";

export const DELETE_CONFIRM_USERNAME = "Type your username to confirm the deletion.";

export interface AccountDeletionDeps {
  db: Db;
  accounts: Pick<Accounts, "confirmIdentity">;
  tokens: Pick<TokenService, "revokeAllForUser">;
  webSessions?: Pick<WebSessions, "destroyAllForUser">;
  audit?: Pick<Audit, "record">;
  /** Ends the user's active deployments (the deployments service). */
  terminateAll?: (userId: string, reason: string) => Promise<number>;
  /** Removes the user's recordings' files (server/core/recordings: deleteUserRecordings); the
   *  rows cascade with the user. Named hook: wired in platform.ts where that module exists. */
  deleteRecordings?: (userId: string) => Promise<unknown>;
  /** Cancels the user's subscription and open checkout at the payment provider at once
   *  (server/core/billing.ts: endFor); throws when the provider cannot be reached. */
  endBilling?: (userId: string) => Promise<unknown>;
}

export function createAccountDeletion({ db, accounts, tokens, webSessions, audit, terminateAll, deleteRecordings, endBilling }: AccountDeletionDeps) {
  async function deleteAccount(userId: string, proof: StepUp & { username?: string }): Promise<Message> {
    const u = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!u) throw unauthorized("User no longer exists");
    if (u.password_hash || u.totp_enabled === 1) await accounts.confirmIdentity(u, proof);
    else if (proof.username?.trim().toLowerCase() !== u.username.toLowerCase()) throw badRequest(DELETE_CONFIRM_USERNAME);

    await endBilling?.(userId);
    await terminateAll?.(userId, "The account was deleted.");
    await deleteRecordings?.(userId);
    await tokens.revokeAllForUser(userId);
    await webSessions?.destroyAllForUser(userId);
    await db.transaction().execute(async (trx) => {
      // The log keeps what happened, not who it was: its names are joined by id (gone with the
      // row), so what goes here is their addresses and the e-mail an admin gave their account.
      await trx.updateTable("audit_log").set({ ip: null }).where("actor_id", "=", userId).execute();
      await trx
        .updateTable("audit_log")
        .set({ detail: null })
        .where("action", "=", "admin.user_create")
        .where("target_type", "=", "user")
        .where("target_id", "=", userId)
        .execute();
      await trx.deleteFrom("users").where("id", "=", userId).execute();
    });
    await audit?.record({ action: "account.deleted", actorId: null });
    return { message: "Your account and its personal data were deleted." };
  }

  return { deleteAccount };
}
export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
