// The challenge page's rules, free of React and of the network so they can be tested alone:
// which controls a deployment status allows, the countdown, the live channel's reconnect and
// polling policy, how each live message changes what the page shows, the ssh command, and the
// spec's user-visible texts (section 8) for this page.

// ---------------------------------------------------------------- statuses and controls

export const DEPLOYMENT_STATUSES = ["idle", "queued", "deploying", "setting_up", "ready", "failed", "terminated"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const isDeploymentStatus = (v: unknown): v is DeploymentStatus =>
  typeof v === "string" && (DEPLOYMENT_STATUSES as readonly string[]).includes(v);

/** A deployment that exists and holds (or is getting) a container. */
export const isActive = (s: DeploymentStatus) => s === "queued" || s === "deploying" || s === "setting_up" || s === "ready";
/** On its way to ready: the page keeps refreshing itself (no JavaScript) or listening (JavaScript). */
export const isStarting = (s: DeploymentStatus) => s === "queued" || s === "deploying" || s === "setting_up";

/** Start (and Retry) only when nothing runs: idle, failed or terminated. */
export const canStart = (s: DeploymentStatus) => s === "idle" || s === "failed" || s === "terminated";
/** Extend only a ready deployment. */
export const canExtend = (s: DeploymentStatus) => s === "ready";
/** Terminate whatever is active. */
export const canTerminate = (s: DeploymentStatus) => isActive(s);

export const STATUS_LABELS: Record<DeploymentStatus, string> = {
  idle: "idle",
  queued: "queued",
  deploying: "deploying",
  setting_up: "setting up",
  ready: "ready",
  failed: "failed",
  terminated: "terminated",
};

// ---------------------------------------------------------------- countdown

/** The expiry warning threshold (spec section 9): under 300 s the timer turns red. */
export const EXPIRY_WARNING_SECONDS = 300;
/** The default session length when the server does not say (spec section 9). */
export const DEFAULT_SESSION_SECONDS = 30 * 60;

/** Whole seconds from `now` until `expiresAt` (never negative); null without an expiry. */
export function secondsLeft(expiresAt: string | null | undefined, now = Date.now()): number | null {
  if (!expiresAt) return null;
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.ceil((t - now) / 1000));
}

/** "mm:ss"; minutes keep counting past 59 (an extended deployment shows "59:30", "89:59"). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export const isExpiryWarning = (seconds: number | null) => seconds !== null && seconds < EXPIRY_WARNING_SECONDS;

/** At zero, an active deployment is terminated (by the page; the server expires it too). */
export const shouldAutoTerminate = (status: DeploymentStatus, seconds: number | null) =>
  seconds !== null && seconds <= 0 && canTerminate(status);

/** The no-JavaScript stand-in for the ticking timer: "HH:MM" in UTC. */
export function expiryClock(expiresAt: string): string {
  const d = new Date(expiresAt);
  if (Number.isNaN(d.getTime())) return "--:--";
  return `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")} UTC`;
}

/**
 * A once-a-second countdown to `expiresAt`: calls onTick with the seconds left right away and
 * every second, and onZero once when it reaches zero (then stops). Returns a stop function.
 */
export function startCountdown(
  expiresAt: string,
  handlers: { onTick(seconds: number): void; onZero?(): void },
): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const tick = () => {
    const left = secondsLeft(expiresAt) ?? 0;
    handlers.onTick(left);
    if (left <= 0) {
      stop();
      handlers.onZero?.();
      return false;
    }
    return true;
  };
  if (tick()) timer = setInterval(tick, 1000);
  return stop;
}

// ---------------------------------------------------------------- the ssh command

export interface SshDetails {
  ssh_host: string;
  ssh_port?: number | null;
  ssh_user?: string | null;
  /** The gateway's host key fingerprint ("SHA256:..."), shown to check the first connection. */
  host_key_fingerprint?: string | null;
}
export const DEFAULT_SSH_PORT = 22;
export const DEFAULT_SSH_USER = "ubuntu";

/** `ssh -p <port> <user>@<host>`, with the spec's defaults (port 22, user ubuntu). */
export function sshCommand(d: SshDetails): string {
  return `ssh -p ${d.ssh_port || DEFAULT_SSH_PORT} ${d.ssh_user || DEFAULT_SSH_USER}@${d.ssh_host}`;
}

// ---------------------------------------------------------------- the deployment as the page sees it

/** GET /challenges/{id}/active-session. */
export interface ChallengeSession {
  deployment_id: string | null;
  status: DeploymentStatus;
  expires_at: string | null;
  ssh_details: SshDetails | null;
  websocket_url: string | null;
  error_message: string | null;
}

export interface DeploymentView {
  deploymentId: string | null;
  status: DeploymentStatus;
  expiresAt: string | null;
  ssh: SshDetails | null;
  /** Why the deployment failed (status failed). */
  errorMessage: string | null;
  /** A later error that did not take the container down. */
  warning: string | null;
  progress: number | null;
  progressMessage: string | null;
  logs: string[];
}

export const MAX_LOG_LINES = 200;

export function viewFromSession(s: ChallengeSession | null | undefined): DeploymentView {
  const status = s && isDeploymentStatus(s.status) ? s.status : "idle";
  return clearIfTerminated({
    deploymentId: s?.deployment_id ?? null,
    status,
    expiresAt: s?.expires_at ?? null,
    ssh: status === "ready" ? validSsh(s?.ssh_details) : null,
    errorMessage: status === "failed" ? (s?.error_message ?? null) : null,
    warning: null,
    progress: status === "ready" ? 100 : null,
    progressMessage: null,
    logs: [],
  });
}

/** One message of the live channel (or a legacy one that only carries a status). */
export type LiveMessage =
  | { type: "deployment_update"; deployment_id?: string; status?: string; expires_at?: string | null; ssh_details?: SshDetails | null; error_message?: string | null }
  | { type: "progress_update"; deployment_id?: string; status?: string; progress?: number; message?: string }
  | { type: "deployment_ready"; deployment_id?: string; status?: "ready"; expires_at?: string | null; ssh_details?: SshDetails | null }
  | { type: "deployment_error"; deployment_id?: string; status?: "failed"; error?: string | null }
  | { type: "deployment_logs"; deployment_id?: string; line?: string }
  | { type?: undefined; deployment_id?: string; status: string; expires_at?: string | null; ssh_details?: SshDetails | null; error_message?: string | null };

/** Reads a WebSocket frame; anything that is not a known message (or a legacy status) is null. */
export function parseLiveMessage(raw: unknown): LiveMessage | null {
  let v: unknown = raw;
  if (typeof raw === "string") {
    try {
      v = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  const known = ["deployment_update", "progress_update", "deployment_ready", "deployment_error", "deployment_logs"];
  if (typeof m.type === "string" && known.includes(m.type)) return m as unknown as LiveMessage;
  if (isDeploymentStatus(m.status)) {
    const { type: _ignored, ...rest } = m;
    return rest as unknown as LiveMessage;
  }
  return null;
}

function validSsh(d: unknown): SshDetails | null {
  if (!d || typeof d !== "object") return null;
  const s = d as Record<string, unknown>;
  if (typeof s.ssh_host !== "string" || !s.ssh_host) return null;
  return {
    ssh_host: s.ssh_host,
    ssh_port: typeof s.ssh_port === "number" ? s.ssh_port : null,
    ssh_user: typeof s.ssh_user === "string" ? s.ssh_user : null,
    ...(typeof s.host_key_fingerprint === "string" && /^SHA256:[A-Za-z0-9+/]+$/.test(s.host_key_fingerprint)
      ? { host_key_fingerprint: s.host_key_fingerprint }
      : {}),
  };
}

/** Terminated clears the timer, the SSH details and the deployment itself (spec section 4). */
function clearIfTerminated(v: DeploymentView): DeploymentView {
  if (v.status !== "terminated" && v.status !== "idle") return v;
  return { ...v, deploymentId: null, expiresAt: null, ssh: null, progress: null, progressMessage: null, warning: null, errorMessage: null };
}

export const stillAccessibleWarning = (error: string | null | undefined) =>
  `${error ? `${error.replace(/\.$/, "")}. ` : ""}The deployment reported an error, but your container is still accessible.`;

/** How one live message changes the page's view of the deployment. */
export function reduceLive(view: DeploymentView, msg: LiveMessage): DeploymentView {
  // A message about another deployment (an old socket, a stale poll) changes nothing.
  if (msg.deployment_id && view.deploymentId && msg.deployment_id !== view.deploymentId) return view;
  const deploymentId = view.deploymentId ?? msg.deployment_id ?? null;
  switch (msg.type) {
    case "progress_update": {
      const status = isDeploymentStatus(msg.status) ? msg.status : view.status;
      const progress = typeof msg.progress === "number" ? Math.max(0, Math.min(100, msg.progress)) : view.progress;
      return clearIfTerminated({ ...view, deploymentId, status, progress, progressMessage: msg.message ?? view.progressMessage });
    }
    case "deployment_ready":
      return {
        ...view,
        deploymentId,
        status: "ready",
        expiresAt: msg.expires_at ?? view.expiresAt,
        ssh: validSsh(msg.ssh_details) ?? view.ssh,
        errorMessage: null,
        progress: 100,
      };
    case "deployment_error":
      // Once SSH details are known the container is up: an error only warns (spec section 4),
      // unless the server already said the deployment failed (then it is the reason why).
      if (view.ssh && view.status !== "failed") return { ...view, deploymentId, warning: stillAccessibleWarning(msg.error) };
      return { ...view, deploymentId, status: "failed", ssh: null, errorMessage: msg.error || view.errorMessage, progress: null };
    case "deployment_logs": {
      if (typeof msg.line !== "string") return view;
      const logs = [...view.logs, msg.line];
      return { ...view, deploymentId, logs: logs.length > MAX_LOG_LINES ? logs.slice(-MAX_LOG_LINES) : logs };
    }
    default: {
      // deployment_update, and legacy messages that carry only a status.
      if (!isDeploymentStatus(msg.status)) return view;
      const status = msg.status;
      // A failed deployment's container is gone: its SSH details no longer lead anywhere.
      const ssh =
        status === "failed" ? null : msg.ssh_details === undefined || msg.ssh_details === null ? view.ssh : (validSsh(msg.ssh_details) ?? view.ssh);
      return clearIfTerminated({
        ...view,
        deploymentId,
        status,
        expiresAt: msg.expires_at ?? view.expiresAt,
        ssh,
        errorMessage: status === "failed" ? (msg.error_message ?? view.errorMessage) : null,
        progress: status === "ready" ? 100 : view.progress,
      });
    }
  }
}

// ---------------------------------------------------------------- reconnect and polling policy

export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_CAP_MS = 30_000;
export const MAX_RECONNECTS = 5;
export const POLL_INTERVAL_MS = 5_000;
/** The reason the server gives when it closes a socket opened without a valid token. */
export const AUTH_REQUIRED = "Authentication required";

/** Delay before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s, ... capped at 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));

/** A normal closure (1000) is a clean close: the server is done with this deployment. */
export const isCleanClose = (code: number) => code === 1000;

export type CloseDecision = { kind: "stop" } | { kind: "reconnect"; delayMs: number } | { kind: "poll"; intervalMs: number };

/**
 * What to do when the live channel closes. `attempts` counts the reconnects already made since
 * the last successful open.
 */
export function decideOnClose(input: { code: number; reason?: string; attempts: number; status: DeploymentStatus }): CloseDecision {
  if (isCleanClose(input.code) || input.status === "terminated" || input.status === "idle") return { kind: "stop" };
  // The same token would be refused again: the web's status route carries the sign-in instead.
  if (input.reason === AUTH_REQUIRED) return { kind: "poll", intervalMs: POLL_INTERVAL_MS };
  if (input.attempts < MAX_RECONNECTS) return { kind: "reconnect", delayMs: reconnectDelay(input.attempts) };
  return { kind: "poll", intervalMs: POLL_INTERVAL_MS };
}

/** Polling ends when the deployment is over: terminated, gone (idle) or failed. */
export const pollingDone = (status: DeploymentStatus) => status === "terminated" || status === "idle" || status === "failed";

// ---------------------------------------------------------------- the live controller

/** The part of a browser WebSocket the controller uses. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

export type LiveMode = "idle" | "connecting" | "live" | "reconnecting" | "polling" | "closed";

export interface LiveSnapshot {
  view: DeploymentView;
  mode: LiveMode;
  /** Reconnects made since the last successful open. */
  attempts: number;
  /** A note about the live channel itself ('Authentication required'). */
  notice: string | null;
}

export interface LiveDeps {
  /** Opens the socket; `attempt` is 0 for the first connect. Null when there is nothing to open. */
  connect(attempt: number): SocketLike | null | Promise<SocketLike | null>;
  /** One poll of the per-challenge session; null when it failed (try again next interval). */
  poll(): Promise<ChallengeSession | null>;
}

/**
 * Keeps one deployment's view current: the WebSocket first, reconnecting with backoff after an
 * unclean close, then polling every 5 s; a clean close or termination stops everything.
 */
export function createLiveController(initial: ChallengeSession | null, deps: LiveDeps) {
  let snap: LiveSnapshot = { view: viewFromSession(initial), mode: "idle", attempts: 0, notice: null };
  const listeners = new Set<() => void>();
  let socket: SocketLike | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let polling = false;

  const set = (patch: Partial<LiveSnapshot>) => {
    snap = { ...snap, ...patch };
    for (const l of listeners) l();
  };
  const apply = (msg: LiveMessage) => {
    const view = reduceLive(snap.view, msg);
    if (view !== snap.view) set({ view });
    if (view.status === "terminated" || view.status === "idle") finish();
  };
  const clearTimers = () => {
    if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
    if (pollTimer !== undefined) clearInterval(pollTimer);
    reconnectTimer = pollTimer = undefined;
  };
  const dropSocket = () => {
    const s = socket;
    socket = null;
    if (s) {
      s.onopen = s.onmessage = s.onerror = null;
      s.onclose = null;
      try {
        s.close(1000, "done");
      } catch {}
    }
  };
  /** Termination (or a clean close): no more reconnects, no more polls. */
  function finish() {
    clearTimers();
    dropSocket();
    polling = false;
    if (snap.mode !== "closed") set({ mode: "closed" });
  }

  async function open(attempt: number) {
    if (stopped) return;
    set({ mode: attempt === 0 ? "connecting" : "reconnecting" });
    let s: SocketLike | null;
    try {
      s = await deps.connect(attempt);
    } catch {
      s = null;
    }
    // Stopped, or finished meanwhile (a fresh status said terminated): nothing to listen to.
    if (stopped || snap.mode === "closed") {
      s?.close(1000, "done");
      return;
    }
    if (!s) return onClose({ code: 1006, reason: "" });
    socket = s;
    s.onopen = () => set({ mode: "live", attempts: 0, notice: null });
    s.onmessage = (ev) => {
      const msg = parseLiveMessage(ev.data);
      if (msg) apply(msg);
    };
    s.onerror = () => {};
    s.onclose = (ev) => {
      if (socket === s) socket = null;
      onClose(ev);
    };
  }

  function onClose(ev: { code: number; reason: string }) {
    if (stopped || polling) return;
    const d = decideOnClose({ code: ev.code, reason: ev.reason, attempts: snap.attempts, status: snap.view.status });
    if (d.kind === "stop") return finish();
    if (ev.reason === AUTH_REQUIRED) set({ notice: AUTH_REQUIRED });
    if (d.kind === "reconnect") {
      const attempt = snap.attempts + 1;
      set({ mode: "reconnecting", attempts: attempt });
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        void open(attempt);
      }, d.delayMs);
      return;
    }
    startPolling(d.intervalMs);
  }

  function startPolling(intervalMs = POLL_INTERVAL_MS) {
    if (stopped || polling) return;
    polling = true;
    set({ mode: "polling" });
    pollTimer = setInterval(() => {
      void deps.poll().then(
        (s) => {
          if (!s || stopped || !polling) return;
          const next = reduceLive(snap.view, { ...s, type: undefined, deployment_id: s.deployment_id ?? undefined } as LiveMessage);
          if (next !== snap.view) set({ view: next });
          if (pollingDone(next.status)) finish();
        },
        () => {},
      );
    }, intervalMs);
  }

  return {
    getSnapshot: () => snap,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Opens the live channel when the deployment is active. */
    start() {
      if (stopped) return;
      if (!isActive(snap.view.status)) return;
      void open(0);
    },
    /** Feeds a message as if the socket had sent it (tests, and the page's own actions). */
    apply,
    /** Unmount: closes the socket and clears every timer. */
    stop() {
      stopped = true;
      clearTimers();
      dropSocket();
    },
  };
}
export type LiveController = ReturnType<typeof createLiveController>;

// ---------------------------------------------------------------- texts (spec sections 5 and 8)

export const TEXT = {
  verificationRequired: "Email verification required to start challenges. Please check your email and verify your account.",
  noDeployment: "No active deployment found. Please start the challenge first.",
  loadFailed: "Failed to load challenge",
  returnToChallenges: "Return to challenges",
  startFailed: "Failed to start challenge",
  extendFailed: "Failed to extend session",
  terminateFailed: "Failed to terminate session",
  submitFailed: "Failed to submit solution",
  validationFailed: "Validation Failed",
  validationDefault: "Challenge validation failed. Please check your solution and try again.",
  tryAgain: "Please fix the issue and try submitting again.",
  deploymentFailed: "Deployment failed.",
  authRequired: AUTH_REQUIRED,
} as const;

const clean = (detail: string | null | undefined) => (typeof detail === "string" && detail.trim() ? detail.trim() : null);

/** Challenge load failure: the detail, or 'Failed to load challenge'. */
export const loadErrorText = (detail?: string | null) => clean(detail) ?? TEXT.loadFailed;
/** Start failure: the detail, or 'Failed to start challenge'. */
export const startErrorText = (detail?: string | null) => clean(detail) ?? TEXT.startFailed;
/** Extend failure: 'Extend failed: ' plus the detail, or 'Failed to extend session'. */
export const extendErrorText = (detail?: string | null) => {
  const d = clean(detail);
  return d ? `Extend failed: ${d}` : TEXT.extendFailed;
};
/** Terminate failure: 'Terminate failed: ' plus the detail, or 'Failed to terminate session'. */
export const terminateErrorText = (detail?: string | null) => {
  const d = clean(detail);
  return d ? `Terminate failed: ${d}` : TEXT.terminateFailed;
};
/** Submit failure: the detail, or 'Failed to submit solution'. */
export const submitErrorText = (detail?: string | null) => clean(detail) ?? TEXT.submitFailed;
/** The feedback under 'Validation Failed': the grader's, or the spec's default. */
export const wrongAnswerFeedback = (feedback?: string | null) => clean(feedback) ?? TEXT.validationDefault;
/** The failure banner: 'Deployment failed.' plus the error. */
export const deploymentFailedText = (error?: string | null) => {
  const e = clean(error);
  return e ? `${TEXT.deploymentFailed} ${e}` : TEXT.deploymentFailed;
};

// ---------------------------------------------------------------- the success screen

/** "12m 04s"; an hour or more reads "1h 02m 03s". */
export function formatSolveTime(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s % 60)}s` : `${m}m ${pad(s % 60)}s`;
}

export const rankText = (rank: number, of: number) => `rank ${rank} of ${of}`;

// ---------------------------------------------------------------- difficulty

export const DIFFICULTY_CLASSES: Record<string, string> = {
  easy: "border-emerald-600 text-emerald-700 dark:border-term-green dark:text-term-green",
  medium: "border-yellow-500 text-yellow-700 dark:text-yellow-300",
  hard: "border-red-600 text-red-700 dark:border-term-red dark:text-term-red",
  expert: "border-purple-600 text-purple-700 dark:border-term-purple dark:text-term-purple",
};
