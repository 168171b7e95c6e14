// A real OAuth2 authorization server on loopback that plays both GitHub and Google, for the API
// and browser tests of "Sign in with GitHub/Google". Plain node:http, no framework.
//
// What it enforces, like the real providers do:
//   /authorize   known client_id, a redirect_uri registered for it (loopback
//                http://localhost|127.0.0.1:<any port>/auth/oauth/<provider>/callback by default),
//                response_type=code, a PKCE S256 code_challenge. It auto-approves (no login form)
//                and redirects to redirect_uri with a fresh code and the same state.
//   token        grant_type=authorization_code; client_id + client_secret (form body or HTTP Basic);
//                the code exists, is unexpired, was issued to this client, redirect_uri is the same
//                as at /authorize, base64url(sha256(code_verifier)) equals the code_challenge, and
//                the code is used ONCE: a replay gets 400 invalid_grant and revokes the access
//                token that code produced (RFC 6749 §4.1.2).
//   GitHub       GET {api}/user and {api}/user/emails with the Bearer token it issued.
//   Google       GET userinfo with the Bearer token it issued.
//
// The next sign-in's identity is chosen with setNextProfile(provider, profile) (used by the next
// /authorize of that provider, then forgotten); without one a fresh random user is made up.
// Over 350 lines: a complete OAuth2/OpenID provider on loopback (authorize, token, user info, both
//  providers' shapes): the test double of what this machine cannot reach.
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ProviderName = "github" | "google";

export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: "public" | "private" | null;
}

/** One person at the provider. Every field is optional; the rest is made up. */
export interface OAuthProfile {
  /** GitHub: numeric user id (as a string); Google: `sub`. */
  id?: string;
  /** GitHub login (ignored by Google). */
  login?: string;
  name?: string | null;
  /** The primary e-mail (GitHub: also shown on /user unless publicEmail is false). */
  email?: string | null;
  /** Whether the provider vouches for `email` (default true). */
  emailVerified?: boolean;
  /** GitHub: whether /user shows the e-mail (default true). */
  publicEmail?: boolean;
  /** GitHub: the full /user/emails list (default: just `email`, primary). */
  emails?: GitHubEmail[];
}

export type ResolvedProfile = Required<Pick<OAuthProfile, "id" | "name" | "email" | "emailVerified">> & OAuthProfile;

export interface OAuthProvider {
  baseUrl: string;
  /** Environment for faultline's server (config.ts names). */
  env: Record<string, string>;
  /** The identity the next authorization of `provider` signs in as. Returns it with defaults filled. */
  setNextProfile(provider: ProviderName, profile: OAuthProfile): ResolvedProfile;
  /** Follows the authorize step without a browser: GET authUrl, read the redirect. */
  authorize(authUrl: string): Promise<{ code: string; state: string; redirect: string }>;
  /** Counters for assertions: token requests answered and refused, userinfo calls. */
  stats: { tokenIssued: number; tokenRefused: number; userinfo: number };
  close(): Promise<void>;
}

interface Client {
  provider: ProviderName;
  id: string;
  secret: string;
}

interface CodeGrant {
  provider: ProviderName;
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  profile: ResolvedProfile;
  expires: number;
  used: boolean;
  accessToken?: string;
}

interface AccessGrant {
  provider: ProviderName;
  profile: ResolvedProfile;
  scope: string;
  expires: number;
}

const CODE_TTL_MS = 10 * 60_000;
const TOKEN_TTL_MS = 60 * 60_000;

const PATHS = {
  github: {
    authorize: "/github/login/oauth/authorize",
    token: "/github/login/oauth/access_token",
    api: "/github/api",
  },
  google: {
    authorize: "/google/o/oauth2/v2/auth",
    token: "/google/token",
    userinfo: "/google/v1/userinfo",
  },
} as const;

/**
 * faultline's environment for a provider at baseUrl with these clients. Lets a server's env be
 * written before the provider starts (playwright.config.ts), given fixed clients and port.
 */
export function providerEnv(baseUrl: string, clients: Record<ProviderName, { id: string; secret: string }>): Record<string, string> {
  return {
    GITHUB_CLIENT_ID: clients.github.id,
    GITHUB_CLIENT_SECRET: clients.github.secret,
    GITHUB_AUTHORIZE_URL: baseUrl + PATHS.github.authorize,
    GITHUB_TOKEN_URL: baseUrl + PATHS.github.token,
    GITHUB_API_URL: baseUrl + PATHS.github.api,
    GOOGLE_CLIENT_ID: clients.google.id,
    GOOGLE_CLIENT_SECRET: clients.google.secret,
    GOOGLE_AUTHORIZE_URL: baseUrl + PATHS.google.authorize,
    GOOGLE_TOKEN_URL: baseUrl + PATHS.google.token,
    GOOGLE_USERINFO_URL: baseUrl + PATHS.google.userinfo,
  };
}

const sha256url = (s: string) => createHash("sha256").update(s).digest("base64url");
const random = (bytes = 24) => randomBytes(bytes).toString("base64url");

function sameString(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Default registered redirect URIs: any loopback port, the provider's callback path. */
function loopbackRedirect(provider: ProviderName, uri: string) {
  try {
    const u = new URL(uri);
    return (
      u.protocol === "http:" &&
      (u.hostname === "localhost" || u.hostname === "127.0.0.1") &&
      u.pathname === `/auth/oauth/${provider}/callback` &&
      u.search === "" &&
      u.hash === ""
    );
  } catch {
    return false;
  }
}

function resolveProfile(provider: ProviderName, p: OAuthProfile = {}): ResolvedProfile {
  const n = randomInt(100_000, 99_999_999);
  const login = p.login ?? `${provider}-user-${n}`;
  return {
    ...p,
    id: p.id ?? String(n),
    login: provider === "github" ? login : undefined,
    name: p.name === undefined ? `Test ${provider} user ${n}` : p.name,
    email: p.email === undefined ? `${login.toLowerCase()}@${provider}.example.test` : p.email,
    emailVerified: p.emailVerified ?? true,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) throw new Error("body too large");
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function startOAuthProvider(
  port = 0,
  opts: {
    host?: string;
    /** Fixed client credentials (for a server whose env is written before this starts); random otherwise. */
    clients?: Partial<Record<ProviderName, { id: string; secret: string }>>;
    redirectUriAllowed?: (provider: ProviderName, uri: string) => boolean;
  } = {},
): Promise<OAuthProvider> {
  const host = opts.host ?? "127.0.0.1";
  const allowed = opts.redirectUriAllowed ?? loopbackRedirect;
  const clients: Record<ProviderName, Client> = {
    github: { provider: "github", id: opts.clients?.github?.id ?? `gh-client-${random(6)}`, secret: opts.clients?.github?.secret ?? `gh-secret-${random()}` },
    google: {
      provider: "google",
      id: opts.clients?.google?.id ?? `google-client-${random(6)}.apps.example.test`,
      secret: opts.clients?.google?.secret ?? `google-secret-${random()}`,
    },
  };
  const next: Partial<Record<ProviderName, ResolvedProfile>> = {};
  const codes = new Map<string, CodeGrant>();
  const tokens = new Map<string, AccessGrant>();
  const stats = { tokenIssued: 0, tokenRefused: 0, userinfo: 0 };

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    });
    res.end(text);
  }

  function authorizeEndpoint(provider: ProviderName, url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const client = clients[provider];
    const clientId = q.get("client_id") ?? "";
    const redirectUri = q.get("redirect_uri") ?? "";
    // Without a known client and a registered redirect URI nothing may be sent back: show an error.
    if (!sameString(clientId, client.id)) return send(res, 400, `invalid_client: unknown client_id "${clientId}"`);
    if (!allowed(provider, redirectUri)) return send(res, 400, `redirect_uri_mismatch: "${redirectUri}" is not registered`);

    const state = q.get("state");
    const back = (params: Record<string, string>) => {
      const to = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) to.searchParams.set(k, v);
      if (state !== null) to.searchParams.set("state", state);
      res.writeHead(302, { location: to.toString(), "cache-control": "no-store" });
      res.end();
    };
    if (q.get("response_type") !== "code") {
      return back({ error: "unsupported_response_type", error_description: "Only response_type=code is supported" });
    }
    const challenge = q.get("code_challenge") ?? "";
    if (q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back({ error: "invalid_request", error_description: "PKCE with code_challenge_method=S256 is required" });
    }
    const profile = next[provider] ?? resolveProfile(provider);
    delete next[provider];
    const code = random();
    codes.set(code, {
      provider,
      clientId,
      redirectUri,
      challenge,
      scope: q.get("scope") ?? "",
      profile,
      expires: Date.now() + CODE_TTL_MS,
      used: false,
    });
    back({ code });
  }

  async function tokenEndpoint(provider: ProviderName, req: IncomingMessage, res: ServerResponse) {
    const wantsJson = provider === "google" || /json/.test(req.headers.accept ?? "");
    const refuse = (status: number, error: string, description: string) => {
      stats.tokenRefused++;
      send(res, status, { error, error_description: description });
    };
    if (req.method !== "POST") return refuse(405, "invalid_request", "POST required");
    const raw = await readBody(req);
    const type = req.headers["content-type"] ?? "";
    let params: URLSearchParams;
    if (type.includes("application/json")) {
      try {
        params = new URLSearchParams(JSON.parse(raw || "{}") as Record<string, string>);
      } catch {
        return refuse(400, "invalid_request", "Malformed JSON body");
      }
    } else {
      params = new URLSearchParams(raw);
    }

    // Client authentication: HTTP Basic or client_id/client_secret in the body.
    let clientId = params.get("client_id") ?? "";
    let clientSecret = params.get("client_secret") ?? "";
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":");
      clientId = decodeURIComponent(id ?? "");
      clientSecret = decodeURIComponent(secret ?? "");
    }
    const client = clients[provider];
    if (!sameString(clientId, client.id) || !sameString(clientSecret, client.secret)) {
      return refuse(401, "invalid_client", "Client authentication failed");
    }
    if (params.get("grant_type") !== "authorization_code") {
      return refuse(400, "unsupported_grant_type", "Only authorization_code is supported");
    }
    const code = params.get("code") ?? "";
    const grant = codes.get(code);
    if (!grant || grant.provider !== provider || grant.clientId !== clientId) {
      return refuse(400, "invalid_grant", "The authorization code is invalid");
    }
    if (grant.used) {
      // A replayed code: refuse it and revoke what the first exchange produced.
      if (grant.accessToken) tokens.delete(grant.accessToken);
      return refuse(400, "invalid_grant", "The authorization code has already been used");
    }
    grant.used = true;
    if (grant.expires < Date.now()) return refuse(400, "invalid_grant", "The authorization code has expired");
    if ((params.get("redirect_uri") ?? "") !== grant.redirectUri) {
      return refuse(400, "invalid_grant", "redirect_uri does not match the authorization request");
    }
    const verifier = params.get("code_verifier") ?? "";
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !sameString(sha256url(verifier), grant.challenge)) {
      return refuse(400, "invalid_grant", "PKCE verification failed");
    }

    const accessToken = `${provider === "github" ? "gho_" : "ya29."}${random(30)}`;
    grant.accessToken = accessToken;
    tokens.set(accessToken, { provider, profile: grant.profile, scope: grant.scope, expires: Date.now() + TOKEN_TTL_MS });
    stats.tokenIssued++;
    const body = {
      access_token: accessToken,
      token_type: "bearer",
      scope: provider === "github" ? grant.scope.split(/\s+/).join(",") : grant.scope,
      ...(provider === "google" ? { expires_in: TOKEN_TTL_MS / 1000 } : {}),
    };
    if (wantsJson) return send(res, 200, body);
    // GitHub answers form-encoded unless asked for JSON.
    res.writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8", "cache-control": "no-store" });
    res.end(new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString());
  }

  function bearer(provider: ProviderName, req: IncomingMessage): AccessGrant | null {
    const m = /^(?:Bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const grant = m ? tokens.get(m[1]!) : undefined;
    if (!grant || grant.provider !== provider || grant.expires < Date.now()) return null;
    return grant;
  }

  function githubApi(path: string, req: IncomingMessage, res: ServerResponse) {
    const grant = bearer("github", req);
    if (!grant) return send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
    const p = grant.profile;
    const emails: GitHubEmail[] = p.emails ?? (p.email ? [{ email: p.email, primary: true, verified: p.emailVerified, visibility: "public" }] : []);
    if (path === "/user") {
      stats.userinfo++;
      return send(res, 200, {
        id: /^\d+$/.test(p.id) ? Number(p.id) : p.id,
        login: p.login,
        name: p.name,
        email: p.publicEmail === false ? null : (emails.find((e) => e.primary)?.email ?? null),
        avatar_url: `https://avatars.example.test/u/${p.id}`,
        type: "User",
      });
    }
    if (path === "/user/emails") {
      const scopes = grant.scope.split(/[\s,]+/);
      if (!scopes.includes("user:email") && !scopes.includes("user")) {
        return send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
      }
      return send(
        res,
        200,
        emails.map((e) => ({ visibility: null, ...e })),
      );
    }
    return send(res, 404, { message: "Not Found" });
  }

  function googleUserinfo(req: IncomingMessage, res: ServerResponse) {
    const grant = bearer("google", req);
    if (!grant) {
      return send(res, 401, { error: "invalid_token" }, { "www-authenticate": 'Bearer error="invalid_token"' });
    }
    stats.userinfo++;
    const p = grant.profile;
    return send(res, 200, {
      sub: p.id,
      name: p.name,
      email: p.email,
      email_verified: p.emailVerified,
      picture: `https://lh3.example.test/a/${p.id}`,
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://provider.invalid");
    const path = url.pathname;
    const handle = async () => {
      if (path === PATHS.github.authorize && req.method === "GET") return authorizeEndpoint("github", url, res);
      if (path === PATHS.google.authorize && req.method === "GET") return authorizeEndpoint("google", url, res);
      if (path === PATHS.github.token) return tokenEndpoint("github", req, res);
      if (path === PATHS.google.token) return tokenEndpoint("google", req, res);
      if (path.startsWith(PATHS.github.api + "/") && req.method === "GET") {
        return githubApi(path.slice(PATHS.github.api.length), req, res);
      }
      if (path === PATHS.google.userinfo && req.method === "GET") return googleUserinfo(req, res);
      send(res, 404, { error: "not_found" });
    };
    handle().catch((e) => {
      if (!res.headersSent) send(res, 500, { error: "server_error", error_description: String(e) });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    env: providerEnv(baseUrl, clients),
    stats,
    setNextProfile(provider, profile) {
      const resolved = resolveProfile(provider, profile);
      next[provider] = resolved;
      return resolved;
    },
    async authorize(authUrl) {
      const res = await fetch(authUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status !== 302 || !location) {
        throw new Error(`authorize did not redirect (${res.status}): ${await res.text()}`);
      }
      const back = new URL(location);
      const code = back.searchParams.get("code");
      const error = back.searchParams.get("error");
      if (!code) throw new Error(`authorize refused: ${error} ${back.searchParams.get("error_description") ?? ""}`.trim());
      return { code, state: back.searchParams.get("state") ?? "", redirect: location };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
