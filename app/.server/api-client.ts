// The web's one way to the API. In the default single process it dispatches in-process to the
// API's Fetch handler; with API_URL set it would use fetch() against that base instead.
// Every request and answer shape is the contract's (shared/contract), the same types the
// server's services declare, so a shape is written once.
import type {
  AccountExport,
  DeploymentResetResult,
  EmailChanged,
  PasswordResetCheck,
  UnsubscribeInfo,
  BillingConfigView,
  BillingStatus,
  CheckoutStarted,
  Debrief,
  EmailVerified,
  HintsState,
  LeaderboardQuery,
  ListQuery,
  LoginResult,
  Message,
  NotificationsUpdate,
  OAuthProviders,
  OAuthStart,
  OwnUser,
  PasswordChange,
  PasswordChanged,
  PlanStatus,
  ProfileUpdate,
  PublicUser,
  RecordingView,
  SignedInUser,
  SshHostKey,
  SshKeyDeleted,
  SshKeyNonce,
  SshKeyPut,
  SshKeySaved,
  SshKeyStatus,
  StepUpProof,
  SubmissionBody,
  SubmissionResult,
  TokenPair,
  TotpChanged,
  TotpSetup,
  TotpVerify,
  FactorProof,
  RecoveryCodes,
  TotpEnabled,
  TotpRemovalScheduled,
  TotpSetupRequest,
  TotpStatus,
} from "../../shared/contract/index.ts";
import type { OpenApiDocument } from "../../shared/contract/openapi.ts";
import type { BodyInputOf, Operation, ResponseOf } from "../../shared/contract/operation.ts";
import { operations } from "../../shared/contract/operations.ts";

export type Dispatch = (request: Request, info: { clientIp: string }) => Promise<Response>;

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string };

/** A query string from the given values; blanks are left out. */
const qs = (params: Record<string, string | number | boolean | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
};

// ---- challenges and deployments: the shapes are the contract (shared/contract/deployments.ts,
// described in docs/api.md), so the web does not depend on the server's internals
import type {
  ActiveDeploymentLookup,
  ChallengeDeployment,
  ChallengeDetail,
  DeploymentDuration,
  ExtendDeploymentResult,
  StartDeploymentResult,
  TerminateDeploymentResult,
} from "../../shared/contract/deployments.ts";

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

  /** One operation of the contract's table: its path filled from `params`, its query and body as
   *  the operation takes them, its answer typed by the operation's response schema. */
  function request<O extends Operation>(
    op: O,
    input: {
      token?: string;
      params?: Record<string, string>;
      query?: Record<string, string | number | boolean | undefined | null>;
      body?: BodyInputOf<O>;
    } = {},
  ): Promise<ApiResult<ResponseOf<O>>> {
    const path = op.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(input.params?.[k] ?? ""));
    return call<ResponseOf<O>>(op.method, path + (input.query ? qs(input.query) : ""), { token: input.token, body: input.body });
  }

  /** A non-JSON answer (a recording's asciicast file) as text, or the error's detail. */
  async function text(path: string, token?: string): Promise<ApiResult<string>> {
    const res = await dispatch(new Request(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { clientIp });
    if (res.ok) return { ok: true, status: res.status, data: await res.text() };
    const data = (await res.json().catch(() => ({}))) as { detail?: unknown };
    return { ok: false, status: res.status, detail: typeof data.detail === "string" ? data.detail : "" };
  }

  const as = (token?: string) => ({
    validate: () => call<OwnUser>("GET", "/auth/validate", { token }),
    me: () => call<OwnUser>("GET", "/users/me", { token }),
    /** The identity check of every page: the account without statistics (no scores read). */
    identity: () => call<SignedInUser>("GET", "/auth/identity", { token }),
    updateProfile: (body: ProfileUpdate) => call<OwnUser>("PATCH", "/users/me", { token, body }),
    changePassword: (body: PasswordChange) => call<PasswordChanged>("PUT", "/users/me/password", { token, body }),
    updateNotifications: (body: NotificationsUpdate) => call<OwnUser>("PUT", "/users/me/notifications", { token, body }),
    getSshKey: () => call<SshKeyStatus>("GET", "/users/me/ssh-key", { token }),
    sshKeyNonce: () => call<SshKeyNonce>("POST", "/users/me/ssh-key/nonce", { token }),
    putSshKey: (body: SshKeyPut) => call<SshKeySaved>("PUT", "/users/me/ssh-key", { token, body }),
    deleteSshKey: (body: StepUpProof = {}) => call<SshKeyDeleted>("DELETE", "/users/me/ssh-key", { token, body }),
    setupTotp: (body: TotpSetupRequest) => call<TotpSetup>("POST", "/auth/2fa/setup", { token, body }),
    verifyTotp: (body: TotpVerify) => call<TotpEnabled>("POST", "/auth/2fa/verify", { token, body }),
    totpStatus: () => call<TotpStatus>("GET", "/auth/2fa", { token }),
    newRecoveryCodes: (body: FactorProof) => call<RecoveryCodes>("POST", "/auth/2fa/recovery-codes", { token, body }),
    disableTotp: (body: FactorProof) => call<TotpChanged>("POST", "/auth/2fa/disable", { token, body }),
    resendVerification: () => call<Message>("POST", "/auth/resend-verification", { token, body: {} }),
    // Challenges and deployments (the challenge page, the global banner).
    challenge: (id: string) => call<ChallengeDetail>("GET", `/challenges/${encodeURIComponent(id)}`, { token }),
    sessionDuration: () => call<DeploymentDuration>("GET", "/challenges/config/session-duration", { token }),
    activeSession: () => call<ActiveDeploymentLookup>("GET", "/challenges/active-session", { token }),
    challengeSession: (id: string) => call<ChallengeDeployment>("GET", `/challenges/${encodeURIComponent(id)}/active-session`, { token }),
    startSession: (id: string) => call<StartDeploymentResult>("POST", `/challenges/${encodeURIComponent(id)}/session/start`, { token, body: {} }),
    extendSession: (id: string) => call<ExtendDeploymentResult>("POST", `/challenges/${encodeURIComponent(id)}/session/extend`, { token, body: {} }),
    terminateSession: (id: string) => call<TerminateDeploymentResult>("POST", `/challenges/${encodeURIComponent(id)}/session/terminate`, { token, body: {} }),
    submitSolution: (id: string, body: SubmissionBody) => call<SubmissionResult>("POST", `/challenges/${encodeURIComponent(id)}/submit`, { token, body }),
    // Costed hints, the debrief after solving, recordings (server/api/debrief-routes.ts).
    hints: (id: string) => call<HintsState>("GET", `/challenges/${encodeURIComponent(id)}/hints`, { token }),
    revealHint: (id: string, number: number) => call<HintsState>("POST", `/challenges/${encodeURIComponent(id)}/hints/reveal`, { token, body: { number } }),
    debrief: (id: string) => call<Debrief>("GET", `/challenges/${encodeURIComponent(id)}/debrief`, { token }),
    allMyRecordings: () => call<{ recordings: RecordingView[] }>("GET", "/users/me/recordings", { token }),
    myRecordings: (id: string) => call<{ recordings: RecordingView[] }>("GET", `/challenges/${encodeURIComponent(id)}/recordings`, { token }),
    setRecordingPublished: (recordingId: string, published: boolean) =>
      call<RecordingView>("PUT", `/recordings/${encodeURIComponent(recordingId)}/published`, { token, body: { published } }),
    /** The owner's recording, or anyone's published one (signed in or not). */
    recordingCast: (recordingId: string) => text(`/recordings/${encodeURIComponent(recordingId)}/cast`, token),
    adminRecordings: (q: { username?: string; limit?: number } = {}) =>
      call<{ recordings: (RecordingView & { username: string })[] }>("GET", `/admin/recordings${qs({ ...q })}`, { token }),
    adminRecordingCast: (recordingId: string) => text(`/admin/recordings/${encodeURIComponent(recordingId)}/cast`, token),
    // Plans and payments (server/core/plans.ts, server/core/billing.ts).
    plan: () => call<PlanStatus>("GET", "/users/me/plan", { token }),
    billing: () => call<BillingStatus>("GET", "/billing", { token }),
    checkout: () => call<CheckoutStarted>("POST", "/billing/checkout", { token, body: {} }),
    cancelAtPeriodEnd: (cancel: boolean) => call<BillingStatus>("POST", "/billing/cancel", { token, body: { cancel_at_period_end: cancel } }),
    // Account basics (server/api/account-routes.ts).
    changeEmail: (body: { new_email: string } & StepUpProof) => call<Message>("POST", "/users/me/email", { token, body }),
    deleteAccount: (body: StepUpProof & { username?: string }) => call<Message>("DELETE", "/users/me", { token, body }),
    exportData: () => call<AccountExport>("GET", "/users/me/export", { token }),
    resetSession: (id: string) => call<DeploymentResetResult>("POST", `/challenges/${encodeURIComponent(id)}/session/reset`, { token, body: {} }),
  });

  return {
    as,
    register: (body: { username: string; email: string; password: string }) => call<OwnUser>("POST", "/auth/register", { body }),
    login: (body: { username_or_email: string; password: string }) => call<LoginResult>("POST", "/auth/login", { body }),
    loginSecondFactor: (body: { mfa_token: string; code?: string; recovery_code?: string }) => call<LoginResult>("POST", "/auth/login/2fa", { body }),
    /** Lost authenticator: the link to the verified address, asked for with the pending sign-in. */
    requestTotpRemoval: (mfa_token: string) => call<Message>("POST", "/auth/2fa/removal", { body: { mfa_token } }),
    confirmTotpRemoval: (token: string) => call<TotpRemovalScheduled>("POST", "/auth/2fa/removal/confirm", { body: { token } }),
    refresh: (refresh_token: string) => call<TokenPair>("POST", "/auth/refresh", { body: { refresh_token } }),
    logout: (refresh_token?: string) => call<Message>("POST", "/auth/logout", { body: { refresh_token } }),
    verifyEmail: (token: string) => call<EmailVerified>("POST", "/auth/verify-email", { body: { token } }),
    requestPasswordReset: (email: string) => call<Message>("POST", "/auth/password-reset/request", { body: { email } }),
    checkPasswordReset: (token: string) => call<PasswordResetCheck>("POST", "/auth/password-reset/check", { body: { token } }),
    resetPassword: (body: { token: string; new_password: string }) => call<Message>("POST", "/auth/password-reset", { body }),
    confirmEmailChange: (token: string) => call<EmailChanged>("POST", "/users/me/email/confirm", { body: { token } }),
    unsubscribeInfo: (token: string) => call<UnsubscribeInfo>("GET", `/notifications/unsubscribe${qs({ token })}`),
    unsubscribe: (token: string) => call<Message>("POST", `/notifications/unsubscribe${qs({ token })}`),
    resendVerificationByEmail: (email: string) => call<Message>("POST", "/auth/resend-verification", { body: { email } }),
    oauthProviders: () => call<OAuthProviders>("GET", "/auth/oauth/providers"),
    oauthStart: (provider: string) => call<OAuthStart>("GET", `/auth/oauth/${provider}/login`),
    oauthCallback: (provider: string, body: { code: string; state: string }) => call<LoginResult>("POST", `/auth/oauth/${provider}/callback`, { body }),
    publicProfile: (username: string) => call<PublicUser>("GET", `/users/${encodeURIComponent(username)}`),
    // The player's reads: public, no token needed.
    challenges: (q: ListQuery = {}) => request(operations.listChallenges, { query: { ...q } }),
    leaderboard: (q: LeaderboardQuery = {}) => request(operations.getLeaderboard, { query: { ...q } }),
    userChallenges: (username: string) => request(operations.listSolvedChallenges, { params: { username } }),
    userSolutions: (username: string) => request(operations.listPublishedSolutions, { params: { username } }),
    userActivity: (username: string) => request(operations.getRecentActivity, { params: { username } }),
    homeStats: () => request(operations.getHomeStats),
    /** Whether payments are enabled on this installation (the pricing dialog asks). */
    billingConfig: () => call<BillingConfigView>("GET", "/billing/config"),
    /** This API described in OpenAPI 3.1 (the /docs/api page). */
    openapi: () => call<OpenApiDocument>("GET", "/openapi.json"),
    /** Live health of each part, measured at most every few seconds (the /status page). */
    health: () => request(operations.getHealth),
    /** The SSH gateway's host key (503 without a gateway). */
    sshHostKey: () => call<SshHostKey>("GET", "/challenges/config/ssh"),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
