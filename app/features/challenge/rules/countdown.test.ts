import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expiryClock, formatCountdown, isExpiryWarning, secondsLeft, shouldAutoTerminate, startCountdown } from "./countdown.ts";
import { iso, T0 } from "./fixtures.ts";

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
