// Typing 'game' or 'play' anywhere on the site (outside a text field) opens the brick-breaker
// (app/lib/brick-breaker.ts). The game's code is fetched only then: nothing is added to a first
// page load but this listener.
import { lazy, Suspense, useCallback, useEffect, useState } from "react";

const BrickBreaker = lazy(() => import("./game/brick-breaker.tsx"));
const WORDS = ["game", "play"];

/** Keys typed into a form field, an editable element or with a modifier are never ours. */
function typedInField(e: KeyboardEvent) {
  const t = e.target as HTMLElement | null;
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  if (!t) return false;
  return t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName);
}

export function EasterEgg() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (open) return;
    let typed = "";
    const onKey = (e: KeyboardEvent) => {
      if (typedInField(e) || e.key.length !== 1) {
        typed = "";
        return;
      }
      typed = (typed + e.key.toLowerCase()).slice(-4);
      if (WORDS.includes(typed)) {
        typed = "";
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <BrickBreaker onClose={close} />
    </Suspense>
  );
}
