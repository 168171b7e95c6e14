// The SSH gateway's question, answered here: "where may this key go?". The gateway holds no user
// data (ContainerSSH's lesson, docs/architecture.md): for every key a client offers it calls
// `resolve`, and it only ever enters the container the answer names. The contract's types live
// here, in core, so core depends on no transport; server/gateway/types.ts re-exports them.
import type { DeploymentContext } from "./context.ts";
import { ACTIVE, type DeploymentRow } from "./model.ts";
import { sshFingerprint } from "#server/core/sshkeys.ts";

/** A public key offered by an SSH client: its algorithm name and its SSH wire-format blob
 *  (`key.data.toString("base64")` is the middle field of an authorized_keys / .pub line). */
export interface OfferedKey {
  algo: string;
  data: Buffer;
}

/** Where an authenticated connection goes. */
export interface Target {
  deploymentId: string;
  /** The container the user's shells and commands run in (the deployment's "target" container). */
  containerId: string;
  /** The user inside the container; usually "root" (or the user a challenge declares). */
  shellUser: string;
  /** The container's hostname, for logs only (the engine sets the real one). */
  hostname?: string;
  /** The platform user who owns the deployment: connections are limited per owner
   *  (default: per deployment). */
  userId?: string;
  /** The challenge the deployment is of (recordings are filed under it). */
  challengeId?: string;
  /** Login shell inside the container (default /bin/bash). */
  shell?: string;
  /** Home directory of `shellUser` (default /root for root, else /home/<shellUser>). */
  home?: string;
}

/** A refusal with the reason shown to the person at the client (one short line, plain text). */
export interface Refusal {
  refuse: string;
}

/**
 * Maps (ssh user name, offered public key) to the deployment that key may enter, or refuses.
 *
 * - Return a Target only when `key.data` is byte-for-byte a key registered by the owner of a
 *   deployment that is `ready`, and, when that owner has several ready deployments, `sshUser`
 *   names which one (whatever naming the deployments service hands out as ssh_user).
 * - Return null for an unknown key or no ready deployment (the client is told so in generic
 *   words), or `{ refuse: "..." }` to tell the person something specific (for example
 *   "Your deployment is still being set up: try again in a few seconds.").
 * - It is called once per signed attempt whose signature the gateway has verified (a forged one
 *   never reaches it: the gateway answers every forger alike, whatever the key's state;
 *   decision 004). Unsigned "would this key do?" queries never reach it (they get the same yes for
 *   every well-formed key). It must be cheap and free of side effects. A thrown error refuses the key and is logged.
 */
export type Resolve = (sshUser: string, key: OfferedKey) => Promise<Target | Refusal | null>;

export function createSshAccess(ctx: DeploymentContext) {
  const { db, challenges } = ctx.deps;

  const resolve: Resolve = async (sshUser, key) => {
    const user = await db.selectFrom("users").select(["id", "ssh_public_key"]).where("ssh_key_fingerprint", "=", sshFingerprint(key.data)).executeTakeFirst();
    // Byte-for-byte: the fingerprint only found the candidate.
    const blob = user?.ssh_public_key?.split(" ")[1];
    if (!user || !blob || !Buffer.from(blob, "base64").equals(key.data)) return null;
    const rows = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("status", "in", ACTIVE)
      .orderBy("created_at", "asc")
      .execute();
    // Only deployments this key's owner owns: a pooled deployment (pool.ts) has no row here until
    // a start claims it for its user, so no key reaches it before, and no other key after.
    const ready = rows.filter((r) => r.status === "ready" && r.container_id && r.user_id === user.id);
    const target = ready.length === 1 ? ready[0] : ready.find((r) => r.ssh_user === sshUser);
    if (target) return toTarget(target);
    if (ready.length > 1) {
      return { refuse: `You have several deployments running: connect as one of ${ready.map((r) => r.ssh_user).join(", ")}.` } satisfies Refusal;
    }
    if (rows.length) return { refuse: "Your deployment is still being set up: try again in a few seconds." } satisfies Refusal;
    return null;
  };

  /** Where the owner's browser terminal goes (server/terminal/): the deployment's target when it
   *  is theirs and ready; null otherwise (whether someone else's exists stays unsaid). */
  async function targetOf(deploymentId: string, userId: string): Promise<Target | "not_ready" | null> {
    const row = await db.selectFrom("deployments").selectAll().where("id", "=", deploymentId).where("user_id", "=", userId).executeTakeFirst();
    if (!row) return null;
    return row.status === "ready" && row.container_id ? toTarget(row) : "not_ready";
  }

  function toTarget(row: DeploymentRow): Target {
    const challenge = challenges.get(row.challenge_id);
    const shellUser = challenge?.user ?? "root";
    return {
      deploymentId: row.id,
      containerId: row.container_id!,
      shellUser,
      hostname: challenge?.hostname,
      userId: row.user_id,
      challengeId: row.challenge_id,
    };
  }

  return { resolve, targetOf };
}
