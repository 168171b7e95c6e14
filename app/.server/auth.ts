// remix-auth strategies for the web. Each one asks the API to do the real work (the API owns
// passwords, OAuth code exchange and tokens); the web keeps the result in the cookie session.
import { createHash, timingSafeEqual } from "node:crypto";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { Strategy } from "remix-auth/strategy";
import { redirect } from "react-router";
import type { LoginResult } from "#shared/contract/index.ts";
import type { Web } from "./context.ts";
import type { Provider } from "#app/lib/providers.ts";

export const UNEXPECTED = "An unexpected error occurred";
export const MISSING_CODE = "Missing authorization code or state parameter";
export const INVALID_STATE = "Invalid state parameter - possible CSRF attack";
export const AUTH_FAILED = "Authentication failed";

/** Constant-time comparison of two secrets; hashing first makes the lengths equal and unreadable. */
const sameSecret = (a: string, b: string) => timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/** A failed sign-in with the message to show the person. */
export class AuthFailure extends Error {}

/** Authorization-code flow where the API builds the URL and exchanges the code. */
class ApiOAuthStrategy extends Strategy<LoginResult, never> {
  name: string;
  constructor(
    private provider: Provider,
    private web: Web,
  ) {
    super(async () => {
      throw new Error("unused");
    });
    this.name = provider;
  }

  async authenticate(request: Request): Promise<LoginResult> {
    const url = new URL(request.url);
    const code = url.searchParams.get("code");
    const state = url.searchParams.get("state");
    const providerError = url.searchParams.get("error");
    const { session } = this.web;

    // Only the start route starts a flow: a callback that arrives without code and state is a
    // failed callback, not a new sign-in (it used to send the browser to the provider again).
    const isCallback = url.pathname.replace(/\/$/, "").endsWith(`/auth/oauth/${this.provider}/callback`);
    if (!isCallback) {
      const started = await this.web.api.startOAuth({ params: { provider: this.provider } });
      if (!started.ok) throw new AuthFailure(started.detail || `Failed to initiate ${this.provider} login`);
      session.set("oauth", { provider: this.provider, state: started.data.state, redirectTo: url.searchParams.get("redirectTo") ?? undefined });
      this.web.touch();
      throw redirect(started.data.auth_url);
    }

    const stored = session.get("oauth");
    session.unset("oauth");
    this.web.touch();
    // A fixed text (AUTH_FAILED), never the callback's own `error_description`: anyone can put
    // words on our page through that link ("Your account is locked, call ...").
    if (providerError) throw new AuthFailure(AUTH_FAILED);
    if (!code || !state) throw new AuthFailure(MISSING_CODE);
    if (!stored || stored.provider !== this.provider || !sameSecret(stored.state, state)) throw new AuthFailure(INVALID_STATE);
    const result = await this.web.api.finishOAuth({ params: { provider: this.provider }, body: { code, state } });
    if (!result.ok) throw new AuthFailure(result.detail || AUTH_FAILED);
    return result.data;
  }
}

export function authenticatorFor(web: Web) {
  const authenticator = new Authenticator<LoginResult>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const result = await web.api.login({
        body: {
          username_or_email: String(form.get("username") ?? ""),
          password: String(form.get("password") ?? ""),
        },
      });
      if (!result.ok) throw new AuthFailure(result.detail || UNEXPECTED);
      return result.data;
    }),
    "password",
  );
  authenticator.use(new ApiOAuthStrategy("github", web), "github");
  authenticator.use(new ApiOAuthStrategy("google", web), "google");
  return authenticator;
}

/** Ends a login: signs in, or parks it until the second factor arrives. Returns where to go. */
export function completeLogin(web: Web, result: LoginResult, redirectTo: string): string {
  if (result.mfa_required) {
    web.session.set("mfa", { token: result.mfa_token, expires: Date.now() + result.expires_in * 1000, redirectTo });
    web.touch();
    return "/login/2fa";
  }
  web.signIn(result);
  return redirectTo;
}
