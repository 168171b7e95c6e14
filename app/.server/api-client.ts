// The web's one way to the API. In the default single process it dispatches in-process to the
// API's Fetch handler; with API_URL set it would use fetch() against that base instead.
import type { LoginResult } from "../../server/core/accounts.ts";
import type { TokenPair } from "../../server/core/tokens.ts";
import type { OwnUser, PublicUser } from "../../server/core/users.ts";

export type Dispatch = (request: Request, info: { clientIp: string }) => Promise<Response>;

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string };

export type { LoginResult, OwnUser, PublicUser, TokenPair };

// ---- the player's reads (catalogue, leaderboard, profiles, home figures)
import type { ChallengeView, ListQuery } from "../../server/core/catalogue.ts";
import type { Activity, HomeStats, LeaderboardPage, Period, SolvedChallenge } from "../../server/core/scoring.ts";
export type { Activity, ChallengeView, HomeStats, LeaderboardPage, Period, SolvedChallenge };

/** A query string from the given values; blanks are left out. */
const qs = (params: Record<string, string | number | boolean | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
};

// ---- challenges and deployments (the contract of docs/api.md; shapes kept here so the web
// does not depend on the server's internals)
export type { ChallengeSession } from "../lib/deployment-rules.ts";
import type { ChallengeSession, DeploymentStatus } from "../lib/deployment-rules.ts";

export interface ChallengeDetail {
  uid: string;
  title: string;
  difficulty_level: string;
  points: number;
  category: string;
  estimated_time_minutes: number;
  description: string;
  short_description: string;
  instructions?: string | null;
  hints?: string[] | null;
}

export interface ActiveSessionLookup {
  has_active_session: boolean;
  active_session: {
    deployment_id: string;
    challenge_id: string;
    challenge_title: string;
    status: DeploymentStatus;
    expires_at: string | null;
  } | null;
}

export interface StartSessionResult {
  expires_at: string;
  deployment_status: { deployment_id: string; status: DeploymentStatus };
  session_id?: string;
}

export interface AchievementUnlocked {
  icon: string;
  title: string;
  description: string;
  xp: number;
}

export interface SubmissionResult {
  is_correct: boolean;
  feedback: string;
  points_awarded: number;
  already_solved: boolean;
  solve_time_seconds: number | null;
  rank: number | null;
  ranked_users: number;
  total_points: number;
  achievements_unlocked: AchievementUnlocked[];
}

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
    sshKeyNonce: () => call<{ nonce: string; namespace: string; expires_in: number; sign_command: string }>("POST", "/users/me/ssh-key/nonce", { token }),
    putSshKey: (body: { ssh_public_key_b64: string; nonce: string; signature: string }) =>
      call<{ message: string }>("PUT", "/users/me/ssh-key", { token, body }),
    deleteSshKey: (body: { current_password?: string; code?: string } = {}) => call<{ message: string }>("DELETE", "/users/me/ssh-key", { token, body }),
    setupTotp: () => call<{ secret: string; qr_code_url: string; otpauth_url: string }>("POST", "/auth/2fa/setup", { token }),
    verifyTotp: (body: { token: string; secret: string }) => call<{ message: string }>("POST", "/auth/2fa/verify", { token, body }),
    disableTotp: (body: { current_password?: string; code?: string }) =>
      call<{ message: string }>("POST", "/auth/2fa/disable", { token, body }),
    resendVerification: () => call<{ message: string }>("POST", "/auth/resend-verification", { token, body: {} }),
    // Challenges and deployments (the challenge page, the global banner).
    challenge: (id: string) => call<ChallengeDetail>("GET", `/challenges/${encodeURIComponent(id)}`, { token }),
    sessionDuration: () => call<{ duration_minutes: number }>("GET", "/challenges/config/session-duration", { token }),
    activeSession: () => call<ActiveSessionLookup>("GET", "/challenges/active-session", { token }),
    challengeSession: (id: string) => call<ChallengeSession>("GET", `/challenges/${encodeURIComponent(id)}/active-session`, { token }),
    startSession: (id: string) => call<StartSessionResult>("POST", `/challenges/${encodeURIComponent(id)}/session/start`, { token, body: {} }),
    extendSession: (id: string) =>
      call<{ expires_at: string; message: string }>("POST", `/challenges/${encodeURIComponent(id)}/session/extend`, { token, body: {} }),
    terminateSession: (id: string) =>
      call<{ message: string; deployment_id: string }>("POST", `/challenges/${encodeURIComponent(id)}/session/terminate`, { token, body: {} }),
    submitSolution: (id: string, body: { solution: string; deployment_uid: string }) =>
      call<SubmissionResult>("POST", `/challenges/${encodeURIComponent(id)}/submit`, { token, body }),
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
    // The player's reads: public, no token needed.
    challenges: (q: ListQuery = {}) => call<{ challenges: ChallengeView[] }>("GET", `/challenges/${qs({ ...q })}`),
    leaderboard: (q: { page?: number; limit?: number; period?: Period; search?: string } = {}) =>
      call<LeaderboardPage>("GET", `/leaderboard${qs(q)}`),
    userChallenges: (username: string) =>
      call<{ challenges: SolvedChallenge[] }>("GET", `/users/${encodeURIComponent(username)}/challenges/`),
    userActivity: (username: string) => call<{ activity: Activity[] }>("GET", `/users/${encodeURIComponent(username)}/activity`),
    homeStats: () => call<HomeStats>("GET", "/stats"),
    /** The SSH gateway's host key (503 without a gateway). */
    sshHostKey: () =>
      call<{ ssh_host: string; ssh_port: number; host_key_fingerprint: string; host_public_key: string; known_hosts: string }>("GET", "/challenges/config/ssh"),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
