import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  canExtend,
  canStart,
  canTerminate,
  type ChallengeSession,
  createLiveController,
  decideOnClose,
  DEPLOYMENT_STATUSES,
  deploymentFailedText,
  expiryClock,
  extendErrorText,
  formatCountdown,
  formatSolveTime,
  isExpiryWarning,
  loadErrorText,
  MAX_RECONNECTS,
  parseLiveMessage,
  rankText,
  reconnectDelay,
  reduceLive,
  secondsLeft,
  shouldAutoTerminate,
  type SocketLike,
  sshCommand,
  startCountdown,
  startErrorText,
  submitErrorText,
  terminateErrorText,
  TEXT,
  viewFromSession,
  wrongAnswerFeedback,
} from "./deployment-rules.ts";

const T0 = Date.parse("2030-01-01T12:00:00.000Z");
const iso = (msFromT0: number) => new Date(T0 + msFromT0).toISOString();
const SSH = { ssh_host: "play.example.test", ssh_port: 2222, ssh_user: "d-abc" };

const session = (patch: Partial<ChallengeSession> = {}): ChallengeSession => ({
  deployment_id: "dep-1",
  status: "queued",
  expires_at: iso(30 * 60_000),
  ssh_details: null,
  websocket_url: "/ws/deployments/dep-1",
  error_message: null,
  ...patch,
});

describe("controls per status", () => {
  const table = {
    idle: [true, false, false],
    queued: [false, false, true],
    deploying: [false, false, true],
    setting_up: [false, false, true],
    ready: [false, true, true],
    failed: [true, false, false],
    terminated: [true, false, false],
  } as const;
  it.each(DEPLOYMENT_STATUSES)("%s", (status) => {
    expect([canStart(status), canExtend(status), canTerminate(status)]).toEqual(table[status]);
  });
});

describe("countdown", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it("counts whole seconds to the expiry and shows mm:ss", () => {
    expect(secondsLeft(iso(90_500))).toBe(91);
    expect(secondsLeft(iso(-5_000))).toBe(0);
    expect(secondsLeft(null)).toBeNull();
    expect(secondsLeft("not a date")).toBeNull();
    expect(formatCountdown(1800)).toBe("30:00");
    expect(formatCountdown(299)).toBe("04:59");
    expect(formatCountdown(5)).toBe("00:05");
    expect(formatCountdown(3600 + 59)).toBe("60:59");
    expect(formatCountdown(-3)).toBe("00:00");
  });

  it("warns (red) under 300 s, not at 300 s", () => {
    expect(isExpiryWarning(300)).toBe(false);
    expect(isExpiryWarning(299)).toBe(true);
    expect(isExpiryWarning(0)).toBe(true);
    expect(isExpiryWarning(null)).toBe(false);
  });

  it("terminates at zero only with an active deployment", () => {
    expect(shouldAutoTerminate("ready", 0)).toBe(true);
    expect(shouldAutoTerminate("deploying", 0)).toBe(true);
    expect(shouldAutoTerminate("ready", 1)).toBe(false);
    for (const s of ["idle", "failed", "terminated"] as const) expect(shouldAutoTerminate(s, 0)).toBe(false);
  });

  it("ticks every second and calls onZero once at zero", () => {
    const ticks: number[] = [];
    const onZero = vi.fn();
    startCountdown(iso(3_000), { onTick: (s) => ticks.push(s), onZero });
    expect(ticks).toEqual([3]);
    vi.advanceTimersByTime(1_000);
    expect(ticks).toEqual([3, 2]);
    vi.advanceTimersByTime(2_000);
    expect(ticks).toEqual([3, 2, 1, 0]);
    expect(onZero).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(ticks).toHaveLength(4);
    expect(onZero).toHaveBeenCalledTimes(1);
  });

  it("an expiry already past fires onZero at once; stop() ends the ticks", () => {
    const onZero = vi.fn();
    startCountdown(iso(-1_000), { onTick: () => {}, onZero });
    expect(onZero).toHaveBeenCalledTimes(1);
    const ticks: number[] = [];
    const stop = startCountdown(iso(60_000), { onTick: (s) => ticks.push(s) });
    vi.advanceTimersByTime(2_000);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(ticks).toEqual([60, 59, 58]);
  });

  it("shows a static UTC clock without JavaScript", () => {
    expect(expiryClock("2030-01-01T09:05:00Z")).toBe("09:05 UTC");
    expect(expiryClock("garbage")).toBe("--:--");
  });
});

describe("ssh command", () => {
  it("uses the given port, user and host", () => {
    expect(sshCommand(SSH)).toBe("ssh -p 2222 d-abc@play.example.test");
  });
  it("defaults to port 22 and user ubuntu", () => {
    expect(sshCommand({ ssh_host: "h.example" })).toBe("ssh -p 22 ubuntu@h.example");
    expect(sshCommand({ ssh_host: "h.example", ssh_port: null, ssh_user: "" })).toBe("ssh -p 22 ubuntu@h.example");
  });
});

describe("message reducer", () => {
  const queued = viewFromSession(session());

  it("progress_update moves the status and the progress", () => {
    const v = reduceLive(queued, { type: "progress_update", deployment_id: "dep-1", status: "deploying", progress: 40, message: "starting container" });
    expect(v).toMatchObject({ status: "deploying", progress: 40, progressMessage: "starting container" });
    expect(reduceLive(v, { type: "progress_update", progress: 140 }).progress).toBe(100);
  });

  it("deployment_update sets status, expiry and ssh details", () => {
    const v = reduceLive(queued, {
      type: "deployment_update",
      deployment_id: "dep-1",
      status: "setting_up",
      expires_at: iso(60_000),
      ssh_details: null,
      error_message: null,
    });
    expect(v).toMatchObject({ status: "setting_up", expiresAt: iso(60_000), ssh: null });
    const r = reduceLive(v, { type: "deployment_update", status: "ready", ssh_details: SSH });
    expect(r).toMatchObject({ status: "ready", ssh: SSH, progress: 100 });
  });

  it("deployment_ready sets ready, expiry and ssh details", () => {
    const v = reduceLive(queued, { type: "deployment_ready", deployment_id: "dep-1", status: "ready", expires_at: iso(99_000), ssh_details: SSH });
    expect(v).toMatchObject({ status: "ready", expiresAt: iso(99_000), ssh: SSH, errorMessage: null });
  });

  it("keeps the gateway's host key fingerprint from the SSH details, and only a well-formed one (L12)", () => {
    const fingerprint = "SHA256:8zwBkxqGJ4l0tczzabz9dQaXbEq3Za4zI5FVKfz4UXg";
    const v = reduceLive(queued, { type: "deployment_ready", status: "ready", expires_at: iso(1), ssh_details: { ...SSH, host_key_fingerprint: fingerprint } });
    expect(v.ssh).toEqual({ ...SSH, host_key_fingerprint: fingerprint });
    const odd = reduceLive(queued, { type: "deployment_ready", status: "ready", expires_at: iso(1), ssh_details: { ...SSH, host_key_fingerprint: "<b>trust me</b>" } });
    expect(odd.ssh).toEqual(SSH);
  });

  it("deployment_error fails a deployment whose SSH details are not known yet", () => {
    const v = reduceLive(queued, { type: "deployment_error", deployment_id: "dep-1", status: "failed", error: "image missing" });
    expect(v).toMatchObject({ status: "failed", errorMessage: "image missing", warning: null });
    expect(deploymentFailedText(v.errorMessage)).toBe("Deployment failed. image missing");
  });

  it("deployment_error after SSH details only warns that the container is still accessible", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const v = reduceLive(ready, { type: "deployment_error", error: "log stream lost" });
    expect(v.status).toBe("ready");
    expect(v.ssh).toEqual(SSH);
    expect(v.warning).toMatch(/log stream lost\. .*still accessible/);
  });

  it("a deployment the server marks failed after ready shows the failure, not the warning", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const failed = reduceLive(ready, { type: "deployment_update", status: "failed", ssh_details: SSH, error_message: "The environment stopped unexpectedly." });
    expect(failed).toMatchObject({ status: "failed", ssh: null, errorMessage: "The environment stopped unexpectedly." });
    const after = reduceLive(failed, { type: "deployment_error", status: "failed", error: "The environment stopped unexpectedly." });
    expect(after).toMatchObject({ status: "failed", warning: null, errorMessage: "The environment stopped unexpectedly." });
  });

  it("deployment_logs appends lines (bounded)", () => {
    let v = reduceLive(queued, { type: "deployment_logs", line: "pulling" });
    v = reduceLive(v, { type: "deployment_logs", line: "started" });
    expect(v.logs).toEqual(["pulling", "started"]);
    for (let i = 0; i < 300; i++) v = reduceLive(v, { type: "deployment_logs", line: `l${i}` });
    expect(v.logs).toHaveLength(200);
    expect(v.logs.at(-1)).toBe("l299");
  });

  it("legacy messages that only carry a status are accepted", () => {
    const m = parseLiveMessage(JSON.stringify({ status: "deploying" }));
    expect(m).toEqual({ status: "deploying" });
    expect(reduceLive(queued, m!).status).toBe("deploying");
    expect(parseLiveMessage(JSON.stringify({ type: "something_else", status: "ready" }))).toEqual({ status: "ready" });
  });

  it("ignores garbage and unknown messages", () => {
    expect(parseLiveMessage("{not json")).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: "hello" }))).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ status: "exploded" }))).toBeNull();
    expect(parseLiveMessage("[1,2]")).toBeNull();
  });

  it("terminated clears the timer, the ssh details and the deployment", () => {
    const ready = reduceLive(queued, { type: "deployment_ready", ssh_details: SSH, expires_at: iso(1) });
    const v = reduceLive(ready, { type: "deployment_update", status: "terminated" });
    expect(v).toMatchObject({ status: "terminated", deploymentId: null, expiresAt: null, ssh: null });
    expect(canStart(v.status)).toBe(true);
  });

  it("ignores messages about another deployment", () => {
    const v = reduceLive(queued, { type: "deployment_update", deployment_id: "dep-OLD", status: "terminated" });
    expect(v).toBe(queued);
  });

  it("an idle session from the API is an empty view", () => {
    const v = viewFromSession({ deployment_id: null, status: "idle", expires_at: null, ssh_details: null, websocket_url: null, error_message: null });
    expect(v).toMatchObject({ status: "idle", deploymentId: null, ssh: null });
    expect(viewFromSession(null).status).toBe("idle");
  });
});

describe("reconnect policy", () => {
  it("backs off 1 s, 2 s, 4 s, 8 s, 16 s and is capped at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
  it("reconnects at most 5 times, then polls every 5 s", () => {
    for (let a = 0; a < MAX_RECONNECTS; a++) {
      expect(decideOnClose({ code: 1006, attempts: a, status: "deploying" })).toEqual({ kind: "reconnect", delayMs: reconnectDelay(a) });
    }
    expect(decideOnClose({ code: 1006, attempts: 5, status: "deploying" })).toEqual({ kind: "poll", intervalMs: 5000 });
  });
  it("a clean close or termination stops", () => {
    expect(decideOnClose({ code: 1000, attempts: 0, status: "ready" })).toEqual({ kind: "stop" });
    expect(decideOnClose({ code: 1006, attempts: 0, status: "terminated" })).toEqual({ kind: "stop" });
  });
  it("'Authentication required' goes straight to polling", () => {
    expect(decideOnClose({ code: 1008, reason: TEXT.authRequired, attempts: 0, status: "queued" })).toEqual({ kind: "poll", intervalMs: 5000 });
  });
});

// A socket the test drives by hand.
class FakeSocket implements SocketLike {
  onopen: SocketLike["onopen"] = null;
  onmessage: SocketLike["onmessage"] = null;
  onclose: SocketLike["onclose"] = null;
  onerror: SocketLike["onerror"] = null;
  closed: { code?: number; reason?: string } | null = null;
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
  }
  open() {
    this.onopen?.({});
  }
  send(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code = 1006, reason = "") {
    this.onclose?.({ code, reason });
  }
}

describe("live controller", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  function setup(initial = session(), pollAnswer: () => ChallengeSession | null = () => null) {
    const sockets: FakeSocket[] = [];
    const connectTimes: number[] = [];
    const pollTimes: number[] = [];
    const c = createLiveController(initial, {
      connect: () => {
        connectTimes.push(Date.now() - T0);
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      poll: async () => {
        pollTimes.push(Date.now() - T0);
        return pollAnswer();
      },
    });
    return { c, sockets, connectTimes, pollTimes };
  }

  it("goes live, applies messages and stops after termination", async () => {
    const { c, sockets } = setup();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.open();
    expect(c.getSnapshot().mode).toBe("live");
    sockets[0]!.send({ type: "progress_update", deployment_id: "dep-1", status: "deploying", progress: 50, message: "x" });
    sockets[0]!.send({ type: "deployment_ready", deployment_id: "dep-1", status: "ready", expires_at: iso(5), ssh_details: SSH });
    expect(c.getSnapshot().view).toMatchObject({ status: "ready", ssh: SSH });
    sockets[0]!.send({ type: "deployment_update", deployment_id: "dep-1", status: "terminated" });
    expect(c.getSnapshot().mode).toBe("closed");
    expect(sockets[0]!.closed).not.toBeNull();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
  });

  it("reconnects after 1, 2, 4, 8, 16 s, then polls every 5 s until terminated", async () => {
    let answer: ChallengeSession | null = session({ status: "deploying" });
    const { c, sockets, connectTimes, pollTimes } = setup(session(), () => answer);
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    // Every attempt fails before opening.
    for (let i = 0; i < 6; i++) {
      sockets[i]!.drop(1006);
      await vi.advanceTimersByTimeAsync(i < 5 ? reconnectDelay(i) : 0);
    }
    expect(connectTimes).toEqual([0, 1000, 3000, 7000, 15000, 31000]);
    expect(c.getSnapshot().mode).toBe("polling");
    expect(c.getSnapshot().attempts).toBe(5);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(pollTimes).toEqual([36000, 41000, 46000]);
    answer = session({ status: "ready", ssh_details: SSH });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(c.getSnapshot().view).toMatchObject({ status: "ready", ssh: SSH });
    answer = session({ deployment_id: null, status: "idle", expires_at: null, websocket_url: null });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(c.getSnapshot().mode).toBe("closed");
    expect(c.getSnapshot().view.status).toBe("idle");
    const polls = pollTimes.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pollTimes).toHaveLength(polls);
    expect(sockets).toHaveLength(6);
  });

  it("a successful open resets the attempt count", async () => {
    const { c, sockets, connectTimes } = setup();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.drop();
    await vi.advanceTimersByTimeAsync(1000);
    sockets[1]!.drop();
    await vi.advanceTimersByTimeAsync(2000);
    sockets[2]!.open();
    expect(c.getSnapshot().attempts).toBe(0);
    sockets[2]!.drop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(connectTimes).toEqual([0, 1000, 3000, 4000]);
  });

  it("a clean close stops reconnection", async () => {
    const { c, sockets, pollTimes } = setup();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.open();
    sockets[0]!.drop(1000, "terminated");
    expect(c.getSnapshot().mode).toBe("closed");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    expect(pollTimes).toHaveLength(0);
  });

  it("'Authentication required' is shown and polling takes over", async () => {
    const { c, sockets, pollTimes } = setup();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.drop(1008, "Authentication required");
    expect(c.getSnapshot()).toMatchObject({ mode: "polling", notice: "Authentication required" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pollTimes).toEqual([5000, 10000]);
    expect(sockets).toHaveLength(1);
  });

  it("does not open a socket for a deployment that is not active; stop() ends everything", async () => {
    const idle = setup(session({ deployment_id: null, status: "idle", websocket_url: null }));
    idle.c.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(idle.sockets).toHaveLength(0);

    const { c, sockets, connectTimes } = setup();
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    sockets[0]!.drop();
    c.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(connectTimes).toEqual([0]);
  });
});

describe("the spec's error catalogue for the challenge page", () => {
  it("load failure: the detail, or 'Failed to load challenge'", () => {
    expect(loadErrorText("database is down")).toBe("database is down");
    expect(loadErrorText("")).toBe("Failed to load challenge");
    expect(loadErrorText(undefined)).toBe("Failed to load challenge");
    expect(TEXT.returnToChallenges).toBe("Return to challenges");
  });
  it("start failure: the detail, or 'Failed to start challenge'", () => {
    expect(startErrorText("You already have an active deployment")).toBe("You already have an active deployment");
    expect(startErrorText(null)).toBe("Failed to start challenge");
  });
  it("unverified user: the verification text", () => {
    expect(TEXT.verificationRequired).toBe(
      "Email verification required to start challenges. Please check your email and verify your account.",
    );
  });
  it("extend failure: 'Extend failed: ' plus the detail, or 'Failed to extend session'", () => {
    expect(extendErrorText("Maximum extensions reached")).toBe("Extend failed: Maximum extensions reached");
    expect(extendErrorText("")).toBe("Failed to extend session");
  });
  it("terminate failure: 'Terminate failed: ' plus the detail, or 'Failed to terminate session'", () => {
    expect(terminateErrorText("No active deployment")).toBe("Terminate failed: No active deployment");
    expect(terminateErrorText(undefined)).toBe("Failed to terminate session");
  });
  it("submit failure: the detail, or 'Failed to submit solution'", () => {
    expect(submitErrorText(TEXT.noDeployment)).toBe("No active deployment found. Please start the challenge first.");
    expect(submitErrorText("  ")).toBe("Failed to submit solution");
  });
  it("wrong answer: 'Validation Failed' with the feedback or the default", () => {
    expect(TEXT.validationFailed).toBe("Validation Failed");
    expect(wrongAnswerFeedback("nginx still returns 502")).toBe("nginx still returns 502");
    expect(wrongAnswerFeedback("")).toBe("Challenge validation failed. Please check your solution and try again.");
    expect(TEXT.tryAgain).toBe("Please fix the issue and try submitting again.");
  });
  it("deployment failed: 'Deployment failed.' plus the error", () => {
    expect(deploymentFailedText("no capacity")).toBe("Deployment failed. no capacity");
    expect(deploymentFailedText(null)).toBe("Deployment failed.");
  });
  it("live channel without a token: 'Authentication required'", () => {
    expect(TEXT.authRequired).toBe("Authentication required");
  });
});

describe("success screen", () => {
  it("formats the real solve time and rank", () => {
    expect(formatSolveTime(724)).toBe("12m 04s");
    expect(formatSolveTime(59)).toBe("0m 59s");
    expect(formatSolveTime(3723)).toBe("1h 02m 03s");
    expect(rankText(3, 17)).toBe("rank 3 of 17");
  });
});
