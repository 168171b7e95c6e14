// The root middleware: loads the sign-in session, keeps the
// access token fresh (refresh when under 5 minutes are left), resolves the user once per
// request, and saves the session cookie when something changed. Signing in and out writes the
// session under a new id (session.ts), so an id known before never becomes a signed-in one. Cross-site form posts never get
// here: server.ts refuses any web request whose Origin differs from the request's (403).
import { decodeJwt } from "jose";
import type { MiddlewareFunction } from "react-router";
import type { TokenPair } from "#shared/contract/index.ts";
import { createApiClient } from "./api-client.ts";
import { platformContext, type SessionData, type Web, webContext } from "./context.ts";
import { sessionStoreFor } from "./session.ts";

export const REFRESH_WINDOW_SECONDS = 5 * 60;

/** exp (seconds) read from a JWT's payload; an unreadable token counts as not expiring. */
export function tokenExpiry(token: string): number {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === "number" ? exp : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const expiresSoon = (exp: number, now = Date.now() / 1000) => exp - now < REFRESH_WINDOW_SECONDS;

/** sub (the user id) of our own API's access token; "" when unreadable. */
function tokenSubject(token: string): string {
  try {
    return decodeJwt(token).sub ?? "";
  } catch {
    return "";
  }
}

const toStored = (t: TokenPair): NonNullable<SessionData["tokens"]> => ({
  access_token: t.access_token,
  refresh_token: t.refresh_token,
  access_exp: tokenExpiry(t.access_token),
  user_id: tokenSubject(t.access_token),
});

// Parallel requests of one browser must not rotate the same refresh token twice (the second
// would look like a replay and end the login), so refreshes are shared per refresh token.
const refreshing = new Map<string, Promise<TokenPair | null>>();

export const webMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const deps = context.get(platformContext);
  const storage = sessionStoreFor(deps.webSessions);
  const session = await storage.getSession(request.headers.get("cookie"));
  const api = createApiClient(deps.dispatch, deps.clientIp);
  let dirty = false;
  let ended = false;
  /** Who is signed in changed: save under a new id and end the old one. */
  let rotate = false;

  async function refresh(stored: NonNullable<SessionData["tokens"]>) {
    let p = refreshing.get(stored.refresh_token);
    if (!p) {
      p = api.refreshTokens({ body: { refresh_token: stored.refresh_token } }).then((r) => (r.ok ? r.data : null));
      refreshing.set(stored.refresh_token, p);
      p.finally(() => setTimeout(() => refreshing.delete(stored.refresh_token), 10_000));
    }
    const pair = await p;
    if (pair) {
      session.set("tokens", toStored(pair));
      dirty = true;
    }
    return pair;
  }

  const web: Web = {
    api,
    user: null,
    session,
    signIn(tokens) {
      session.set("tokens", toStored(tokens));
      session.unset("mfa");
      this.token = tokens.access_token;
      rotate = true;
      dirty = true;
    },
    signOut() {
      session.unset("tokens");
      // The remembered OAuth outcome belonged to the sign-in that ends here: a later load of
      // that callback must not say "Signed in with ..." to a signed-out browser.
      session.unset("oauthDone");
      this.user = null;
      this.token = undefined;
      ended = true;
      rotate = true;
      dirty = true;
    },
    touch() {
      dirty = true;
    },
  };

  // A refresh that fails ends the sign-in; the login page then says why.
  const refreshFailed = () => {
    web.signOut();
    session.set("flash", "Failed to refresh token");
  };
  let stored = session.get("tokens");
  if (stored && expiresSoon(stored.access_exp)) {
    if (await refresh(stored)) stored = session.get("tokens");
    else refreshFailed();
  }
  if (stored && !ended) {
    // Only the account (GET /auth/identity): no scores, rank or achievements on every page.
    let me = await api.as(stored.access_token).getIdentity();
    if (!me.ok && me.status === 401 && (await refresh(stored))) {
      stored = session.get("tokens")!;
      me = await api.as(stored.access_token).getIdentity();
    }
    if (me.ok) {
      web.user = me.data;
      web.token = stored.access_token;
    } else if (me.status === 401) {
      refreshFailed();
    }
  }
  context.set(webContext, web);

  const response = await next();
  if (dirty) {
    const empty = Object.keys(session.data).length === 0;
    response.headers.append("Set-Cookie", empty ? await storage.destroy(session) : rotate ? await storage.rotate(session) : await storage.commit(session));
  }
  return response;
};
