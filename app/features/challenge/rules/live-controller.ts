// Keeps one deployment's view current in the browser: the live channel first, reconnecting
// after an unclean close, then polling (the policy is reconnect.ts, the view changes are
// live-view.ts). Free of the DOM: the hook app/hooks/use-deployment-live.ts hands it the
// browser's WebSocket and fetch; the tests hand it fakes and fake timers.
import { type ChallengeDeployment, isActiveStatus } from "#shared/contract/deployments.ts";
import { type DeploymentView, type LiveMessage, parseLiveMessage, reduceLive, viewFromDeployment } from "./live-view.ts";
import { AUTH_REQUIRED, decideOnClose, POLL_INTERVAL_MS, pollingDone } from "./reconnect.ts";

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
  /** One poll of the challenge's deployment; null when it failed (try again next interval). */
  poll(): Promise<ChallengeDeployment | null>;
}

/**
 * Keeps one deployment's view current: the WebSocket first, reconnecting with backoff after an
 * unclean close, then polling every 5 s; a clean close or termination stops everything.
 */
export function createLiveController(initial: ChallengeDeployment | null, deps: LiveDeps) {
  let snap: LiveSnapshot = { view: viewFromDeployment(initial), mode: "idle", attempts: 0, notice: null };
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
      if (!isActiveStatus(snap.view.status)) return;
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
