// The deployment's remaining time. Without JavaScript: a static "expires at HH:MM UTC". With
// it: a ticking mm:ss that turns red with a warning under 300 s.
import { expiryClock, formatCountdown, isExpiryWarning } from "#app/features/challenge/rules/countdown.ts";

export function Countdown({ expiresAt, seconds, testId = "countdown" }: { expiresAt: string; seconds: number | null; testId?: string }) {
  if (seconds === null) {
    return (
      <span className="text-sm text-zinc-600 dark:text-zinc-400" data-testid={testId}>
        expires at <time dateTime={expiresAt}>{expiryClock(expiresAt)}</time>
      </span>
    );
  }
  const warn = isExpiryWarning(seconds);
  return (
    <span
      className={`font-bold tabular-nums ${warn ? "text-red-600 dark:text-term-red" : "text-zinc-800 dark:text-zinc-100"}`}
      data-testid={testId}
      data-warning={warn ? "true" : "false"}
      role="timer"
      aria-label={`time left ${formatCountdown(seconds)}`}
    >
      {formatCountdown(seconds)}
    </span>
  );
}

export function ExpiryWarning({ seconds }: { seconds: number | null }) {
  if (!isExpiryWarning(seconds) || seconds === 0) return null;
  return (
    <p className="alert-error" role="alert" data-testid="expiry-warning">
      Less than 5 minutes left: extend the session or your environment will be terminated.
    </p>
  );
}
