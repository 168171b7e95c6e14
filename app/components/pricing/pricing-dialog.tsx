// The nav's pricing/ button and the plan dialog it opens over the current page. Without
// JavaScript the button is a plain link to /pricing (the same content as a page). With it, a
// click opens a native <dialog> (focus kept inside, Escape closes) and loads /pricing's data.
// Without payments configured, Upgrade is a pretend flow: processing, then the dialog
// closes after 2 s, and it says plainly that nothing is charged.
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PlanCards, type PricingData, type UpgradeState } from "./plan-cards.tsx";

const OPEN_EVENT = "faultline:pricing";
/** How long the pretend upgrade shows "processing" before the dialog closes. */
export const PRETEND_MS = 2000;

/** The nav's button: a link to /pricing that opens the dialog instead when scripts run. */
export function PricingLink({ className }: { className?: string }) {
  return (
    <Link
      to="/pricing"
      className={className}
      data-testid="pricing-button"
      aria-haspopup="dialog"
      onClick={(e) => {
        // A new tab or window (modifier keys, middle button) still gets the page.
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        window.dispatchEvent(new Event(OPEN_EVENT));
      }}
    >
      pricing/
    </Link>
  );
}

/** The dialog; rendered once (in the nav bar), opened by any PricingLink. */
export function PricingDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<PricingData>();
  const [state, setState] = useState<UpgradeState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const open = () => {
      setState("idle");
      dialog.current?.showModal();
      // Fresh each time: the user may have signed in or upgraded since.
      fetcher.load("/pricing");
    };
    window.addEventListener(OPEN_EVENT, open);
    return () => {
      window.removeEventListener(OPEN_EVENT, open);
      clearTimeout(timer.current);
    };
    // Subscribed once: the handler only calls fetcher.load, which reads the current fetcher.
  }, []);

  const close = () => {
    clearTimeout(timer.current);
    dialog.current?.close();
  };
  const pretend = () => {
    setState("processing");
    timer.current = setTimeout(() => {
      setState("done");
      dialog.current?.close();
    }, PRETEND_MS);
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby="pricing-dialog-title"
      className="m-auto w-[min(56rem,calc(100vw-2rem))] rounded border border-zinc-300 bg-white p-6 text-zinc-900 backdrop:bg-black/70 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      data-testid="pricing-dialog"
      onClose={() => clearTimeout(timer.current)}
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id="pricing-dialog-title" className="prompt text-2xl font-bold">
          cat /etc/plans
        </h2>
        <button type="button" className="btn-ghost px-3 py-1" onClick={close} aria-label="Close">
          ✕
        </button>
      </div>
      {fetcher.data ? (
        <PlanCards data={fetcher.data} state={state} onPretend={pretend} />
      ) : (
        <p className="mt-6 text-sm" role="status">
          Loading<span className="animate-pulse">...</span>
        </p>
      )}
      <p className="mt-6 text-sm">
        Questions? Read the{" "}
        <Link to="/faq" onClick={close}>
          FAQ
        </Link>
        .
      </p>
    </dialog>
  );
}
