// Seconds left until an expiry, ticking once a second in the browser (null on the server and
// before hydration, where the page shows a static "expires at HH:MM" instead). onZero runs once
// when the countdown reaches zero.
import { useEffect, useRef, useState } from "react";
import { startCountdown } from "#app/features/challenge/rules/countdown.ts";

export function useCountdown(expiresAt: string | null, onZero?: () => void): number | null {
  const [seconds, setSeconds] = useState<number | null>(null);
  const zero = useRef(onZero);
  zero.current = onZero;
  useEffect(() => {
    if (!expiresAt) {
      setSeconds(null);
      return;
    }
    return startCountdown(expiresAt, { onTick: setSeconds, onZero: () => zero.current?.() });
  }, [expiresAt]);
  return seconds;
}
