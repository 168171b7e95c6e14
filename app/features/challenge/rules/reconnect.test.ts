import { describe, expect, it } from "vitest";
import { decideOnClose, MAX_RECONNECTS, reconnectDelay } from "./reconnect.ts";
import { TEXT } from "./texts.ts";

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
