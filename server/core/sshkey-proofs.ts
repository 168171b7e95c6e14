// Proof of possession for SSH keys. Public keys are public (code hosts list them), so a key is
// only saved for an account when its owner signs a nonce the server handed to that account:
//
//   echo -n '<nonce>' | ssh-keygen -Y sign -n faultline -f ~/.ssh/id_ed25519
//
// Nonces are random, live 15 minutes, are stored hashed and work once. A few may be live per user
// at once (two open settings tabs); the oldest go first.
import type { SshKeyNonce } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { badRequest } from "./errors.ts";
import { hashToken, randomToken } from "./secrets.ts";
import { SSH_KEY_NAMESPACE, SSH_KEY_NONCE_SECONDS, SSH_PROOF_ERRORS, signCommand } from "#shared/sshkey-rules.ts";
import { verifySshSignature } from "./auth/sshsig.ts";

const LIVE_PER_USER = 5;

export function createSshKeyProofs(db: Db) {
  return {
    /** A new nonce for the user (the previous ones stay valid until they expire or are used). */
    async issue(userId: string): Promise<SshKeyNonce> {
      const now = nowSeconds();
      // Hex only: safe inside the single quotes of the command and in every shell.
      const nonce = `faultline-${Buffer.from(randomToken(24), "base64url").toString("hex")}`;
      await db.deleteFrom("ssh_key_nonces").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
      await db
        .insertInto("ssh_key_nonces")
        .values({ nonce_hash: hashToken(nonce), user_id: userId, expires_at: now + SSH_KEY_NONCE_SECONDS, created_ms: Date.now() })
        .execute();
      const live = await db
        .selectFrom("ssh_key_nonces")
        .select("nonce_hash")
        .where("user_id", "=", userId)
        .orderBy("created_ms", "desc")
        .orderBy("nonce_hash")
        .execute();
      const stale = live.slice(LIVE_PER_USER).map((r) => r.nonce_hash);
      if (stale.length) await db.deleteFrom("ssh_key_nonces").where("nonce_hash", "in", stale).execute();
      return { nonce, namespace: SSH_KEY_NAMESPACE, expires_in: SSH_KEY_NONCE_SECONDS, sign_command: signCommand(nonce) };
    },

    /**
     * Checks that `signature` (an armored SSHSIG block) is by the key `keyBlob` over a live nonce
     * of this user, then uses the nonce up. Throws 400 with what was wrong otherwise.
     */
    async prove(userId: string, keyBlob: Buffer, nonce: string, signature: string): Promise<void> {
      const nonceHash = hashToken(nonce.trim());
      const now = nowSeconds();
      const row = await db
        .selectFrom("ssh_key_nonces")
        .select("nonce_hash")
        .where("nonce_hash", "=", nonceHash)
        .where("user_id", "=", userId)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (!row) throw badRequest(SSH_PROOF_ERRORS.nonce);
      // `echo` without -n (or a file saved with an end of line) adds a newline: accept that too.
      const check = verifySshSignature(signature, keyBlob, SSH_KEY_NAMESPACE, [nonce.trim(), `${nonce.trim()}\n`]);
      if (!check.ok) {
        const reason = check.reason === "other-key" ? "otherKey" : check.reason;
        throw badRequest(SSH_PROOF_ERRORS[reason]);
      }
      // Single use, also against two requests racing with the same signature.
      const used = await db.deleteFrom("ssh_key_nonces").where("nonce_hash", "=", nonceHash).where("user_id", "=", userId).executeTakeFirst();
      if (Number(used.numDeletedRows) !== 1) throw badRequest(SSH_PROOF_ERRORS.nonce);
    },
  };
}
export type SshKeyProofs = ReturnType<typeof createSshKeyProofs>;
