// The web's one way to the API. In the default single process it dispatches in-process to the
// API's Fetch handler; with API_URL set it would use fetch() against that base instead.
import type { LoginResult } from "../../server/core/accounts.ts";
import type { TokenPair } from "../../server/core/tokens.ts";
import type { OwnUser, PublicUser } from "../../server/core/users.ts";

export type Dispatch = (request: Request, info: { clientIp: string }) => Promise<Response>;

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string };

export type { LoginResult, OwnUser, PublicUser, TokenPair };

export function createApiClient(dispatch: Dispatch, clientIp: string, base = "http://internal/api/v1") {
  async function call<T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const res = await dispatch(
      new Request(base + path, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      }),
      { clientIp },
    );
    const data = (await res.json().catch(() => ({}))) as any;
    if (res.ok) return { ok: true, status: res.status, data: data as T };
    return { ok: false, status: res.status, detail: typeof data?.detail === "string" ? data.detail : "" };
  }

  const as = (token?: string) => ({
    validate: () => call<OwnUser>("GET", "/auth/validate", { token }),
    me: () => call<OwnUser>("GET", "/users/me", { token }),
    updateProfile: (body: Partial<{ display_name: string | null; bio: string | null; location: string | null; theme: "dark" | "light" }>) =>
      call<OwnUser>("PATCH", "/users/me", { token, body }),
    changePassword: (body: { current_password: string; new_password: string }) =>
      call<{ message: string } & TokenPair>("PUT", "/users/me/password", { token, body }),
    updateNotifications: (body: Record<string, boolean>) => call<OwnUser>("PUT", "/users/me/notifications", { token, body }),
    getSshKey: () => call<{ has_ssh_key: boolean; ssh_key_preview: string | null }>("GET", "/users/me/ssh-key", { token }),
    putSshKey: (ssh_public_key_b64: string) => call<{ message: string }>("PUT", "/users/me/ssh-key", { token, body: { ssh_public_key_b64 } }),
    deleteSshKey: () => call<{ message: string }>("DELETE", "/users/me/ssh-key", { token }),
    setupTotp: () => call<{ secret: string; qr_code_url: string; otpauth_url: string }>("POST", "/auth/2fa/setup", { token }),
    verifyTotp: (body: { token: string; secret: string }) => call<{ message: string }>("POST", "/auth/2fa/verify", { token, body }),
    disableTotp: () => call<{ message: string }>("POST", "/auth/2fa/disable", { token }),
    resendVerification: () => call<{ message: string }>("POST", "/auth/resend-verification", { token, body: {} }),
  });

  return {
    as,
    register: (body: { username: string; email: string; password: string }) => call<OwnUser>("POST", "/auth/register", { body }),
    login: (body: { username_or_email: string; password: string }) => call<LoginResult>("POST", "/auth/login", { body }),
    loginSecondFactor: (body: { mfa_token: string; code: string }) => call<LoginResult>("POST", "/auth/login/2fa", { body }),
    refresh: (refresh_token: string) => call<TokenPair>("POST", "/auth/refresh", { body: { refresh_token } }),
    logout: (refresh_token?: string) => call<{ message: string }>("POST", "/auth/logout", { body: { refresh_token } }),
    verifyEmail: (token: string) => call<{ message: string }>("POST", "/auth/verify-email", { body: { token } }),
    resendVerificationByEmail: (email: string) => call<{ message: string }>("POST", "/auth/resend-verification", { body: { email } }),
    oauthProviders: () => call<Record<"github" | "google", { enabled: boolean }>>("GET", "/auth/oauth/providers"),
    oauthStart: (provider: string) => call<{ state: string; auth_url: string }>("GET", `/auth/oauth/${provider}/login`),
    oauthCallback: (provider: string, body: { code: string; state: string }) =>
      call<LoginResult>("POST", `/auth/oauth/${provider}/callback`, { body }),
    publicProfile: (username: string) => call<PublicUser>("GET", `/users/${encodeURIComponent(username)}`),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
