// The deployment's countdown: seconds left, the "mm:ss" display, the red warning under five
// minutes, termination at zero, and the static "HH:MM UTC" shown without JavaScript.
import type { DeploymentStatus } from "#shared/contract/deployments.ts";
import { canTerminate } from "./status.ts";

/** Under 300 s the timer turns red and a warning appears (countdown.test.ts holds the rule). */
export const EXPIRY_WARNING_SECONDS = 300;

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
export const shouldAutoTerminate = (status: DeploymentStatus, seconds: number | null) => seconds !== null && seconds <= 0 && canTerminate(status);

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
export function startCountdown(expiresAt: string, handlers: { onTick(seconds: number): void; onZero?(): void }): () => void {
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
