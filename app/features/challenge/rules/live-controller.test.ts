import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChallengeDeployment as ChallengeSession } from "#shared/contract/deployments.ts";
import { FakeSocket, iso, session, SSH, T0 } from "./fixtures.ts";
import { createLiveController } from "./live-controller.ts";
import { reconnectDelay } from "./reconnect.ts";

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
