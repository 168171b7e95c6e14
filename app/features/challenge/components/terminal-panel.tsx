// "open terminal": a shell in the deployment in the browser, for people who cannot use ssh
// (docs/decisions/013-browser-terminal.md). Shown once the deployment is ready. xterm.js and its
// stylesheet load only when the person opens it (dynamic import of ../terminal/xterm-session.ts).
// Without JavaScript it says the terminal needs JavaScript and shows the ssh command.
import { useEffect, useRef, useState } from "react";
import { TERMINAL_LIMITS } from "#shared/contract/terminal.ts";
import type { TerminalSession, TerminalState } from "#app/features/challenge/terminal/xterm-session.ts";

const STATE_LABEL: Record<TerminalState["kind"], string> = {
  connecting: "connecting",
  open: "connected",
  reconnecting: "reconnecting",
  taken: "open in another tab",
  ended: "ended",
  exited: "shell exited",
  refused: "not available",
};

export function TerminalPanel({ deploymentId, sshCommand, hydrated }: { deploymentId: string; sshCommand: string; hydrated: boolean }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<TerminalState>({ kind: "connecting" });
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const session = useRef<TerminalSession | null>(null);

  useEffect(() => {
    if (!open || !box.current) return;
    let cancelled = false;
    void (async () => {
      try {
        const { openTerminal } = await import("#app/features/challenge/terminal/xterm-session.ts");
        if (cancelled || !box.current) return;
        const s = await openTerminal(box.current, deploymentId, (st) => !cancelled && setState(st));
        if (cancelled) s.dispose();
        else session.current = s;
      } catch {
        setError("The terminal could not be loaded: reload the page, or use ssh.");
      }
    })();
    return () => {
      cancelled = true;
      session.current?.dispose();
      session.current = null;
    };
  }, [open, deploymentId]);

  return (
    <section className="panel space-y-3" aria-labelledby="terminal-heading" data-testid="terminal-panel">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="terminal-heading" className="prompt text-lg font-bold">
          terminal
        </h2>
        {open ? (
          <span className="text-xs text-zinc-500" data-testid="terminal-state" data-state={state.kind} role="status">
            [{STATE_LABEL[state.kind]}]
          </span>
        ) : null}
      </header>
      {!hydrated ? (
        <div className="space-y-2" data-testid="terminal-needs-js">
          <p className="text-sm">The terminal in the browser needs JavaScript. Connect with ssh instead:</p>
          <code className="block select-all break-all rounded border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-black dark:text-term-green">
            {sshCommand}
          </code>
        </div>
      ) : !open ? (
        <div className="space-y-2">
          <button type="button" className="btn-primary" onClick={() => setOpen(true)} data-testid="terminal-open">
            open terminal
          </button>
          <p className="text-xs text-zinc-500">
            A shell in your deployment, here in the page. One tab at a time: opening it in another tab moves it there. If the connection drops, the shell keeps
            running for {TERMINAL_LIMITS.graceSeconds / 60} minutes and the page reconnects to it. Like ssh sessions, it is recorded for your replay.
          </p>
        </div>
      ) : (
        <>
          <div ref={box} className="h-96 w-full overflow-hidden rounded border border-zinc-800 bg-black p-1" data-testid="terminal-screen" />
          {state.kind === "taken" || state.kind === "ended" || state.kind === "exited" || state.kind === "refused" ? (
            <div className="alert-warn flex flex-wrap items-center justify-between gap-3" role="alert" data-testid="terminal-message">
              <span>{state.kind === "exited" ? `The shell exited (status ${state.code}).` : state.message}</span>
              {state.kind !== "ended" || !/deployment/.test(state.message) ? (
                <button type="button" className="btn-ghost px-3 py-1" onClick={() => session.current?.reconnect()} data-testid="terminal-reconnect">
                  {state.kind === "taken" ? "use it here" : "open a new shell"}
                </button>
              ) : null}
            </div>
          ) : null}
          <p className="text-xs text-zinc-500">
            Copy: select, then Ctrl+Shift+C. Paste: Ctrl+V or Ctrl+Shift+V. Closed after {TERMINAL_LIMITS.idleMinutes} minutes without input.
          </p>
        </>
      )}
      {error ? (
        <p className="alert-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
