// Public-key authentication and key lookup (docs/decisions/004-ssh-gateway.md, "Authentication"):
// the order of the checks is the point. A stranger's made-up keys cost a lookup, never a
// signature check; whether a key is registered is only told to whoever proves they hold it.
import ssh2, { type AuthContext, type PublicKeyAuthContext } from "ssh2";
import { sshFingerprint, sshKeyProblem } from "../core/sshkeys.ts";
import { openForOwner, ownerLimitKey } from "./admission.ts";
import { sendAuthBanner } from "./banner.ts";
import { printable, type Conn } from "./connection.ts";
import { MESSAGES } from "./messages.ts";
import type { GatewayLogger, Refusal, Resolve, Target } from "./types.ts";

const { utils } = ssh2;

export interface AuthDeps {
  resolve: Resolve;
  log: GatewayLogger;
  conns: Set<Conn>;
  maxAuthAttempts: number;
  maxPerUser: number;
}

export function createAuthenticator({ resolve, log, conns, maxAuthAttempts, maxPerUser }: AuthDeps) {
  let signatureChecks = 0;

  /** Refuses with words for the person (once per connection for the same words). */
  function refuse(conn: Conn, ctx: AuthContext, message: string) {
    if (!conn.refusals.has(message) && conn.client) {
      conn.refusals.add(message);
      sendAuthBanner(conn.client, message);
    }
    conn.outcome = "refused";
    ctx.reject(["publickey"]);
  }

  async function authenticate(conn: Conn, ctx: AuthContext) {
    conn.sshUser = ctx.username;
    if (ctx.method === "none") return ctx.reject(["publickey"]);
    if (ctx.method !== "publickey") return refuse(conn, ctx, MESSAGES.keysOnly);
    if (conn.overCapacity) return refuse(conn, ctx, MESSAGES.busy);
    const pk = ctx as PublicKeyAuthContext;
    if (++conn.authAttempts > maxAuthAttempts) {
      refuse(conn, ctx, MESSAGES.tooManyAttempts);
      conn.client?.end();
      return;
    }
    // Keys whose parameters make a signature check costly (an RSA exponent of thousands of bits)
    // are never considered, whoever offers them.
    if (sshKeyProblem(pk.key.data)) return ctx.reject(["publickey"]);
    const key = utils.parseKey(pk.key.data);
    if (key instanceof Error || Array.isArray(key)) return ctx.reject(["publickey"]);
    // "Would this key do?" gets the same yes for every well-formed key: whether a key is
    // registered, and the state of its owner's deployments, are only told to whoever proves
    // they hold it (the signed round below).
    if (!pk.signature) return ctx.accept();

    // Look the key up first, and verify only signatures by keys that lead somewhere: a stranger's
    // made-up keys cost a database lookup, never a signature check.
    let answer: Target | Refusal | null;
    try {
      answer = await resolve(ctx.username, { algo: pk.key.algo, data: pk.key.data });
    } catch (e) {
      log.error(`ssh: resolve failed for ${printable(ctx.username)} ${sshFingerprint(pk.key.data)}`, e);
      return conn.closed ? undefined : refuse(conn, ctx, MESSAGES.resolveFailed);
    }
    if (conn.closed) return;
    if (!answer) return refuse(conn, ctx, MESSAGES.noDeployment);
    signatureChecks++;
    if (!pk.blob || key.verify(pk.blob, pk.signature, pk.hashAlgo) !== true) {
      log.warn(`ssh: bad signature from ${conn.remote} for user ${printable(ctx.username)} key ${sshFingerprint(pk.key.data)}`);
      // The same words as for an unknown key: a forger learns nothing about the key's owner.
      return refuse(conn, ctx, MESSAGES.noDeployment);
    }
    if ("refuse" in answer) return refuse(conn, ctx, answer.refuse);
    const limitKey = ownerLimitKey(answer);
    const open = openForOwner(conns, conn, limitKey);
    if (open >= maxPerUser) return refuse(conn, ctx, MESSAGES.tooManyForUser(open));
    conn.target = answer;
    conn.limitKey = limitKey;
    conn.outcome = "ok";
    clearTimeout(conn.authTimer);
    ctx.accept();
  }

  return {
    authenticate,
    /** Client signatures verified since the start (only keys `resolve` maps somewhere are). */
    signatureChecks: () => signatureChecks,
  };
}
