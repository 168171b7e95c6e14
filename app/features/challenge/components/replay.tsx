// "Replay your session": one recorded shell played in the browser by asciinema-player. The
// player (WebAssembly terminal emulator and all) and its stylesheet are loaded only when asked
// for, here, by dynamic import: no other page pays for them. The recording comes from the web's
// own resource route (app/routes/recording-cast.tsx: the owner's, a published one, or an admin's
// audited read), so no API token reaches the page. Without JavaScript the file can be downloaded.
import { useEffect, useRef, useState } from "react";

type Player = { dispose(): void; getCurrentTime(): Promise<number> | number };

/** Adds the player's stylesheet once (a <link>: style-src 'self' allows our own files). */
async function loadStylesheet(): Promise<void> {
  const { default: href } = await import("asciinema-player/dist/bundle/asciinema-player.css?url");
  if (document.querySelector(`link[data-asciinema]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.asciinema = "1";
  document.head.append(link);
}

export function Replay({ src, label, hydrated, testId = "replay" }: { src: string; label: string; hydrated: boolean; testId?: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open || !box.current) return;
    let player: Player | null = null;
    let cancelled = false;
    void (async () => {
      try {
        const [lib] = await Promise.all([import("asciinema-player"), loadStylesheet()]);
        if (cancelled || !box.current) return;
        player = lib.create({ url: src }, box.current, { autoPlay: true, fit: "width", idleTimeLimit: 2, terminalFontSize: "small" }) as Player;
      } catch {
        setError("The replay could not be loaded. Download the recording instead.");
      }
    })();
    return () => {
      cancelled = true;
      player?.dispose();
    };
  }, [open, src]);

  return (
    <div className="space-y-2" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-3">
        {hydrated ? (
          <button type="button" className="btn-primary" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="replay-button">
            {open ? "close replay" : label}
          </button>
        ) : null}
        <a href={src} download className="text-sm underline" data-testid="replay-download">
          download the recording (.cast)
        </a>
      </div>
      {error ? (
        <p className="alert-error" role="alert">
          {error}
        </p>
      ) : null}
      {open ? <div ref={box} className="overflow-hidden rounded" data-testid="replay-player" /> : null}
    </div>
  );
}
