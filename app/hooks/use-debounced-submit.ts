// With JavaScript: a GET form's text field submits itself after a pause in typing (300 ms,
// SEARCH_DEBOUNCE_MS), its selects at once. Without JavaScript the same form submits with its button.
import { useCallback, useEffect, useRef } from "react";
import { useSubmit } from "react-router";

export function useDebouncedSubmit(delayMs: number) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const now = useCallback(
    (form: HTMLFormElement | null) => {
      clearTimeout(timer.current);
      if (form) void submit(form, { replace: true, preventScrollReset: true });
    },
    [submit],
  );
  const later = useCallback(
    (form: HTMLFormElement | null) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => now(form), delayMs);
    },
    [delayMs, now],
  );
  return { now, later };
}

/** Keeps an uncontrolled input or select showing the URL's value (back/forward) unless the user is typing in it. */
export function useSyncedValue(ref: React.RefObject<HTMLInputElement | HTMLSelectElement | null>, value: string) {
  useEffect(() => {
    const el = ref.current;
    if (el && document.activeElement !== el) el.value = value;
  }, [ref, value]);
}
