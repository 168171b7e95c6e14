// The account's SSH key: shown, saved only with a proof of possession (sshkey-proofs.ts), replaced
// or deleted behind the step-up.
import type { SshKeyDeleted, SshKeyNonce, SshKeySaved, SshKeyStatus } from "#shared/contract/index.ts";
import { conflict } from "#server/core/errors.ts";
import { createSshKeyProofs } from "#server/core/sshkey-proofs.ts";
import { parseSshPublicKey } from "#server/core/sshkeys.ts";
import type { UserRow } from "#server/core/users.ts";
import type { AccountsContext, StepUp } from "./context.ts";

export function createSshKeys(ctx: AccountsContext) {
  const { db, audit } = ctx.deps;
  const { view, requireUser, update, confirmIdentity } = ctx;
  const sshProofs = createSshKeyProofs(db);

  /**
   * Step-up for changing the SSH key. An account with neither a password nor 2FA (GitHub or
   * Google sign-in only) has nothing to confirm with: its session is all there is.
   */
  async function confirmKeyChange(u: UserRow, proof: StepUp): Promise<void> {
    if (!u.password_hash && u.totp_enabled !== 1) return;
    await confirmIdentity(u, proof);
  }

  async function getSshKey(userId: string): Promise<SshKeyStatus> {
    const v = await view(await requireUser(userId));
    return { has_ssh_key: v.has_ssh_key, ssh_key_preview: v.ssh_key_preview, fingerprint: v.ssh_key_fingerprint };
  }

  /** A nonce to sign with the SSH key about to be saved (proof of possession). */
  async function sshKeyNonce(userId: string): Promise<SshKeyNonce> {
    await requireUser(userId);
    return sshProofs.issue(userId);
  }

  /**
   * Saves the account's SSH key, only with a signature by that key over a nonce this account
   * was given (public keys are public: without it anyone could take someone's key and have
   * their ssh land in a deployment of theirs). Replacing a key also needs the step-up.
   */
  async function setSshKey(userId: string, input: { key: string; nonce: string; signature: string } & StepUp): Promise<SshKeySaved> {
    const key = parseSshPublicKey(input.key);
    const u = await requireUser(userId);
    if (u.ssh_public_key && u.ssh_key_fingerprint !== key.fingerprint) await confirmKeyChange(u, input);
    await sshProofs.prove(userId, key.blob, input.nonce, input.signature);
    try {
      await update(userId, { ssh_public_key: key.line, ssh_key_fingerprint: key.fingerprint });
      if (u.ssh_key_fingerprint && u.ssh_key_fingerprint !== key.fingerprint) ctx.deps.credentials?.changed({ userId, what: "ssh-key" });
      await audit?.record({ action: "ssh_key.set", actorId: userId, detail: { fingerprint: key.fingerprint } });
    } catch (e) {
      // The unique index on the fingerprint (migration 0003): the key belongs to another account.
      if (/unique|duplicate/i.test(String((e as Error)?.message))) {
        throw conflict("This SSH key is already registered to another account. Use a key of your own.");
      }
      throw e;
    }
    return { message: "SSH key saved", has_ssh_key: true, fingerprint: key.fingerprint };
  }

  /** Removing the key needs the step-up too (delete, then save, is a replacement). */
  async function deleteSshKey(userId: string, proof: StepUp = {}): Promise<SshKeyDeleted> {
    const u = await requireUser(userId);
    if (u.ssh_public_key) await confirmKeyChange(u, proof);
    await update(userId, { ssh_public_key: null, ssh_key_fingerprint: null });
    if (u.ssh_public_key) ctx.deps.credentials?.changed({ userId, what: "ssh-key" });
    await audit?.record({ action: "ssh_key.deleted", actorId: userId });
    return { message: "SSH key deleted", has_ssh_key: false };
  }

  return { getSshKey, sshKeyNonce, setSshKey, deleteSshKey };
}
