// Sign-in with GitHub and Google: authorization-code flow with PKCE and a single-use state
// kept server-side. The provider's profile becomes a faultline account, or is linked to the
// account that already owns the same provider-verified e-mail.
// The protocol itself (the authorization URL, the S256 challenge, the code exchange with the
// client's credentials) is arctic's generic OAuth2Client (https://arcticjs.dev), the client
// remix-auth-oauth2 is built on; the exchange lives here, in the API, which the web calls
// in-process. Arctic's GitHub and Google classes are not used: they fix the providers' URLs, and
// ours are configurable (GitHub Enterprise; the loopback provider of tests/support/oauth-provider.ts).
import { ArcticFetchError, CodeChallengeMethod, generateCodeVerifier, OAuth2Client } from "arctic";
import type { LoginResult, OAuthStart } from "#shared/contract/index.ts";
import type { OAuthProviderConfig, OAuthProviderName } from "#server/config.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import { badRequest, unavailable, upstreamFailed } from "#server/core/errors.ts";
import { hashToken, randomToken } from "#server/core/secrets.ts";
import { addressKey, type RateLimiter } from "#server/core/ratelimit.ts";
import type { TokenService } from "./tokens.ts";
import type { Accounts } from "#server/core/accounts/index.ts";
import { newUserRow, type UserRow } from "#server/core/users.ts";

const STATE_SECONDS = 10 * 60;
/** How long the provider has to answer one request before the sign-in fails with 502. */
const PROVIDER_MS = 10_000;
const TIMED_OUT = new Error("the provider did not answer in time");
/** Arctic's fetch takes no signal: the sign-in stops waiting, and the request ends on its own. */
function withinTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(TIMED_OUT), PROVIDER_MS)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
/**
 * Starting a sign-in needs no account and stores a state row: without a limit, every anonymous
 * GET would be a database write. Generous for people (a start per click), tight for a script.
 */
const STARTS_PER_IP = { max: 30, windowSeconds: 10 * 60 };
export const INVALID_STATE = "Invalid state parameter - possible CSRF attack";
export const AUTH_FAILED = "Authentication failed";

export interface ProviderProfile {
  id: string;
  login: string | null;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
}

export const providerLabel = (p: OAuthProviderName) => (p === "github" ? "GitHub" : "Google");
export const unverifiedEmail = (p: OAuthProviderName) =>
  `${providerLabel(p)} has not verified the e-mail address of your account. Verify it with ${providerLabel(p)} first, or register with a password.`;

export function createOAuth(deps: {
  db: Db;
  tokens: TokenService;
  accounts: Accounts;
  providers: Record<OAuthProviderName, OAuthProviderConfig>;
  publicUrl: URL;
  limiter: RateLimiter;
}) {
  const { db, tokens, accounts, providers, publicUrl, limiter } = deps;
  const redirectUri = (p: OAuthProviderName) => new URL(`/auth/oauth/${p}/callback`, publicUrl).toString();

  function configured(p: OAuthProviderName) {
    const c = providers[p];
    if (!c.clientId || !c.clientSecret) throw unavailable(`${providerLabel(p)} sign-in is not configured on this server`);
    return c as Required<OAuthProviderConfig>;
  }

  const client = (p: OAuthProviderName) => {
    const c = configured(p);
    return { c, oauth: new OAuth2Client(c.clientId, c.clientSecret, redirectUri(p)) };
  };

  async function exchangeCode(p: OAuthProviderName, code: string, verifier: string): Promise<string> {
    const { c, oauth } = client(p);
    try {
      const tokens = await withinTime(oauth.validateAuthorizationCode(c.tokenUrl, code, verifier));
      // GitHub answers a refused code with 200 and an `error` field: no access token, so this throws.
      return tokens.accessToken();
    } catch (e) {
      // Unreachable, timed out: the provider failed (502). Anything it answered: the sign-in failed.
      throw e instanceof ArcticFetchError || e === TIMED_OUT ? upstreamFailed(AUTH_FAILED) : badRequest(AUTH_FAILED);
    }
  }

  /** A provider that cannot be reached (down, timed out) fails the sign-in with 502, not a 500. */
  async function callProvider(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_MS) });
    } catch {
      throw upstreamFailed(AUTH_FAILED);
    }
  }

  async function getJson(url: string, accessToken: string) {
    const res = await callProvider(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "faultline" },
    });
    if (!res.ok) throw badRequest(AUTH_FAILED);
    return res.json().catch(() => {
      throw upstreamFailed(AUTH_FAILED);
    }) as Promise<any>;
  }

  async function profile(p: OAuthProviderName, accessToken: string): Promise<ProviderProfile> {
    const c = configured(p);
    if (p === "github") {
      const base = c.userInfoUrl.replace(/\/$/, "");
      const user = await getJson(`${base}/user`, accessToken);
      const emails: { email: string; primary: boolean; verified: boolean }[] = await getJson(`${base}/user/emails`, accessToken).catch(() => []);
      const best = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
      return {
        id: String(user.id),
        login: user.login ?? null,
        name: user.name ?? null,
        email: best?.email ?? user.email ?? null,
        emailVerified: Boolean(best),
      };
    }
    const info = await getJson(c.userInfoUrl, accessToken);
    return {
      id: String(info.sub),
      login: null,
      name: info.name ?? null,
      email: info.email ?? null,
      emailVerified: info.email_verified === true || info.email_verified === "true",
    };
  }

  async function uniqueUsername(p: ProviderProfile): Promise<string> {
    const seed = p.login ?? p.email?.split("@")[0] ?? p.name ?? "player";
    let base = seed
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 28);
    if (base.length < 3) base = (base + "player").slice(0, 6);
    for (let i = 0; i < 50; i++) {
      const candidate = i === 0 ? base : `${base.slice(0, 27)}-${i + 1}`;
      const taken = await db
        .selectFrom("users")
        .select("id")
        .where(({ eb, fn }) => eb(fn("lower", ["username"]), "=", candidate.toLowerCase()))
        .executeTakeFirst();
      if (!taken && !accounts.usernameReserved(candidate)) return candidate;
    }
    return `${base.slice(0, 20)}-${randomToken(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x")}`;
  }

  async function link(user: UserRow, p: OAuthProviderName, prof: ProviderProfile) {
    const takeover = user.is_verified === 0;
    if (takeover) {
      // The provider proved the e-mail belongs to this person; whoever set up the unverified
      // account may not have been them: its other sign-in identities go with the password.
      await db.deleteFrom("oauth_accounts").where("user_id", "=", user.id).execute();
    }
    await db
      .insertInto("oauth_accounts")
      .values({
        provider: p,
        provider_user_id: prof.id,
        user_id: user.id,
        email: prof.email,
        login: prof.login,
        created_at: nowSeconds(),
      })
      .execute();
    const changes: Partial<UserRow> = { updated_at: nowSeconds() };
    if (!user.oauth_provider || takeover) changes.oauth_provider = p;
    if (p === "github" && prof.login) changes.github_username = prof.login;
    else if (takeover) changes.github_username = null;
    if (takeover) {
      // ...and so do every credential they set: password, second factor, SSH key, and logins.
      changes.is_verified = 1;
      changes.password_hash = null;
      changes.totp_enabled = 0;
      changes.totp_secret = null;
      changes.totp_last_step = null;
      changes.ssh_public_key = null;
      changes.ssh_key_fingerprint = null;
      await tokens.revokeAllForUser(user.id);
    }
    await db.updateTable("users").set(changes).where("id", "=", user.id).execute();
  }

  async function findOrCreate(p: OAuthProviderName, prof: ProviderProfile): Promise<UserRow> {
    const linked = await db.selectFrom("oauth_accounts").select("user_id").where("provider", "=", p).where("provider_user_id", "=", prof.id).executeTakeFirst();
    if (linked) return (await accounts.byId(linked.user_id))!;

    const email = prof.email?.toLowerCase() ?? null;
    // An address the provider does not vouch for is refused whether or not an account has it:
    // refusing only when one exists told anyone with a provider account which addresses are
    // registered here, and an address nobody proved must not make an account.
    if (email && !prof.emailVerified) throw badRequest(unverifiedEmail(p));
    if (email) {
      const existing = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
      if (existing) {
        await link(existing, p, prof);
        return (await accounts.byId(existing.id))!;
      }
    }
    const { id } = await db
      .insertInto("users")
      .values(
        newUserRow({
          username: await uniqueUsername(prof),
          // Providers may hide the address; a placeholder keeps the column unique and says so.
          email: email ?? `${p}-${prof.id}@users.noreply.faultline`,
          is_verified: prof.emailVerified ? 1 : 0,
          display_name: prof.name,
          github_username: p === "github" ? prof.login : null,
          oauth_provider: p,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const user = (await accounts.byId(id))!;
    await link({ ...user, is_verified: 1 }, p, prof);
    return (await accounts.byId(id))!;
  }

  return {
    isConfigured: (p: OAuthProviderName) => Boolean(providers[p].clientId && providers[p].clientSecret),

    /** `ip`: the caller's address; starts are limited per address (each one stores a row). */
    async start(p: OAuthProviderName, ip: string): Promise<OAuthStart> {
      const { c, oauth } = client(p);
      await limiter.consume(`oauth-start:${addressKey(ip)}`, STARTS_PER_IP);
      const state = randomToken();
      const verifier = generateCodeVerifier();
      // Expired states go as new ones come: the table holds at most the last 10 minutes' starts.
      await db.deleteFrom("oauth_states").where("expires_at", "<", nowSeconds()).execute();
      await db
        .insertInto("oauth_states")
        .values({
          state_hash: hashToken(state),
          provider: p,
          code_verifier: verifier,
          expires_at: nowSeconds() + STATE_SECONDS,
          created_at: nowSeconds(),
        })
        .execute();
      const scopes = p === "github" ? ["read:user", "user:email"] : ["openid", "email", "profile"];
      const url = oauth.createAuthorizationURLWithPKCE(c.authorizeUrl, state, CodeChallengeMethod.S256, verifier, scopes);
      return { state, auth_url: url.toString() };
    },

    /** Consumes the state (so a replay is refused), exchanges the code, signs the user in. */
    async callback(p: OAuthProviderName, input: { code: string; state: string }): Promise<LoginResult> {
      configured(p);
      const row = await db
        .deleteFrom("oauth_states")
        .where("state_hash", "=", hashToken(input.state))
        .where("provider", "=", p)
        .returning(["code_verifier", "expires_at"])
        .executeTakeFirst();
      if (!row || row.expires_at <= nowSeconds()) throw badRequest(INVALID_STATE);
      const accessToken = await exchangeCode(p, input.code, row.code_verifier);
      const user = await findOrCreate(p, await profile(p, accessToken));
      return accounts.startLogin(user);
    },
  };
}
export type OAuth = ReturnType<typeof createOAuth>;
