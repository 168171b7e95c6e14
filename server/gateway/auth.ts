// Public-key authentication and key lookup (docs/decisions/004-ssh-gateway.md, "Authentication"):
// the order of the checks is the point. Whether a key is registered, and the state of its owner's
// deployments, are only looked up for, and told to, whoever proves they hold it: a forged
// signature costs the same (one verify, no lookup) whatever the key.
import ssh2, { type AuthContext, type ParsedKey, type PublicKeyAuthContext } from "ssh2";
import { sshFingerprint, sshKeyProblem } from "#server/core/sshkeys.ts";
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

    // The signature first, then the lookup: a forged signature costs one verify and gets the
    // generic refusal whatever the key's state (unknown, registered, its owner's deployment
    // running or being set up), so neither the answer nor its timing tells a forger anything
    // (decision 004). The verify is bounded by the key checks above and the attempt caps.
    signatureChecks++;
    if (!verified(key, pk)) {
      if (!conn.badSignature) {
        conn.badSignature = true; // once per connection: a forger cannot flood the log
        log.warn(`ssh: bad signature from ${conn.remote} for user ${printable(ctx.username)} key ${sshFingerprint(pk.key.data)}`);
      }
      return refuse(conn, ctx, MESSAGES.noDeployment);
    }
    let answer: Target | Refusal | null;
    try {
      answer = await resolve(ctx.username, { algo: pk.key.algo, data: pk.key.data });
    } catch (e) {
      log.error(`ssh: resolve failed for ${printable(ctx.username)} ${sshFingerprint(pk.key.data)}`, e);
      return conn.closed ? undefined : refuse(conn, ctx, MESSAGES.resolveFailed);
    }
    if (conn.closed) return;
    if (!answer) return refuse(conn, ctx, MESSAGES.noDeployment);
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

  /** Whether the signed request's signature is the key's (a malformed one is not). */
  function verified(key: ParsedKey, pk: PublicKeyAuthContext): boolean {
    if (!pk.blob || !pk.signature) return false;
    try {
      return key.verify(pk.blob, pk.signature, pk.hashAlgo) === true;
    } catch {
      return false;
    }
  }

  return {
    authenticate,
    /** Client signatures verified since the start (one per signed attempt). */
    signatureChecks: () => signatureChecks,
  };
}
