// The browser terminal's client side, loaded only when a person opens the terminal (the panel
// imports this module dynamically, so no other page and no closed panel pays for xterm.js): an
// xterm.js terminal fitted to its box, over the WebSocket /ws/terminal/{deployment id} on this
// site, authenticated by the session cookie the browser sends (no token in the page). When the
// socket drops (a network blip, the laptop sleeping) it reconnects with the shell's id and the
// output offset it had reached, and gets exactly what it missed: the shell kept running.
import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import { TERMINAL_CLOSE, TERMINAL_LIMITS, terminalPath, type TerminalServerMessage } from "#shared/contract/terminal.ts";

export type TerminalState =
  | { kind: "connecting" }
  | { kind: "open" }
  | { kind: "reconnecting" }
  | { kind: "taken"; message: string }
  | { kind: "ended"; message: string }
  | { kind: "exited"; code: number }
  | { kind: "refused"; message: string };

export interface TerminalSession {
  /** Connects again (after "taken", "exited" or a refusal: a new or the same shell). */
  reconnect(): void;
  focus(): void;
  dispose(): void;
}

/** xterm.js makes <style> elements for its grid and theme; the page's CSP allows styles of our
 *  own files and of elements carrying this response's nonce (server/http/security-headers.ts), which
 *  the page's own scripts carry. Style elements made while xterm opens get it. */
function withStyleNonce<T>(run: () => T): T {
  const nonce = (document.querySelector("script[nonce]") as HTMLScriptElement | null)?.nonce;
  if (!nonce) return run();
  const original = document.createElement;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    const el = original.call(this, tag, options);
    if (tag.toLowerCase() === "style") el.setAttribute("nonce", nonce);
    return el;
  } as typeof document.createElement;
  try {
    return run();
  } finally {
    document.createElement = original;
  }
}

async function loadStylesheet(): Promise<void> {
  const { default: href } = await import("@xterm/xterm/css/xterm.css?url");
  if (document.querySelector("link[data-xterm]")) return;
  await new Promise<void>((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.dataset.xterm = "1";
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

export async function openTerminal(box: HTMLElement, deploymentId: string, onState: (s: TerminalState) => void): Promise<TerminalSession> {
  await loadStylesheet();
  const term = new Terminal({
    cursorBlink: true,
    fontSize: 14,
    scrollback: 5000,
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    theme: { background: "#000000" },
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  withStyleNonce(() => {
    term.open(box);
    fit.fit();
  });
  // Copy with Ctrl+Shift+C (Ctrl+C is the shell's interrupt); paste is the browser's own
  // (Ctrl+V or Ctrl+Shift+V, or the context menu), which xterm.js turns into input.
  term.attachCustomKeyEventHandler((e) => {
    if (e.type === "keydown" && e.ctrlKey && e.shiftKey && e.code === "KeyC" && term.hasSelection()) {
      void navigator.clipboard?.writeText(term.getSelection()).catch(() => {});
      return false;
    }
    return true;
  });

  const encoder = new TextEncoder();
  let ws: WebSocket | null = null;
  let shellId: string | null = null;
  let offset = 0;
  let disposed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let lostSince: number | null = null;
  let attempt = 0;

  const sendInput = (data: string | Uint8Array<ArrayBuffer>) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(typeof data === "string" ? encoder.encode(data) : data);
  };
  term.onData((d) => sendInput(d));
  term.onBinary((d) => sendInput(Uint8Array.from(d, (c) => c.charCodeAt(0))));
  term.onResize(({ cols, rows }) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "resize", cols, rows }));
  });
  const refit = () => {
    try {
      fit.fit();
    } catch {
      // not laid out yet
    }
  };
  const observer = new ResizeObserver(refit);
  observer.observe(box);
  window.addEventListener("resize", refit);

  const connect = () => {
    if (disposed) return;
    if (retry) clearTimeout(retry);
    retry = null;
    onState(shellId && lostSince ? { kind: "reconnecting" } : { kind: "connecting" });
    const url = new URL(terminalPath(deploymentId), window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("cols", String(term.cols));
    url.searchParams.set("rows", String(term.rows));
    if (shellId) {
      url.searchParams.set("shell", shellId);
      url.searchParams.set("offset", String(offset));
    }
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    ws = socket;
    let final: TerminalState | null = null;
    socket.onmessage = (ev) => {
      if (ev.data instanceof ArrayBuffer) {
        offset += ev.data.byteLength;
        term.write(new Uint8Array(ev.data));
        return;
      }
      const m = JSON.parse(String(ev.data)) as TerminalServerMessage;
      if (m.type === "attached") {
        // A different shell, or output we no longer can get: the screen starts anew.
        if (m.shell_id !== shellId || m.lost || m.from !== offset) term.reset();
        shellId = m.shell_id;
        offset = m.from;
        lostSince = null;
        attempt = 0;
        onState({ kind: "open" });
        term.focus();
      } else if (m.type === "exit") {
        final = { kind: "exited", code: m.code };
      } else if (m.type === "ended") {
        final = { kind: "ended", message: m.message };
      } else if (m.type === "taken") {
        final = { kind: "taken", message: m.message };
      } else if (m.type === "notice") {
        term.write(`\r\n\x1b[33m[${m.message}]\x1b[0m\r\n`);
      }
    };
    socket.onclose = (ev) => {
      if (ws === socket) ws = null;
      if (disposed) return;
      if (final) {
        if (final.kind !== "taken") shellId = null;
        return onState(final);
      }
      if (ev.code === TERMINAL_CLOSE.taken) return onState({ kind: "taken", message: ev.reason });
      if (ev.code >= 4000) return onState({ kind: "refused", message: ev.reason || "The terminal could not be opened." });
      if (ev.code === TERMINAL_CLOSE.done && !shellId) return onState({ kind: "refused", message: ev.reason || "The terminal closed." });
      // Dropped: the shell waits on the server for a while; keep trying until then.
      lostSince ??= Date.now();
      if (Date.now() - lostSince > TERMINAL_LIMITS.graceSeconds * 1000) {
        shellId = null;
        return onState({ kind: "ended", message: "The connection was lost for too long: the shell has ended." });
      }
      onState({ kind: "reconnecting" });
      retry = setTimeout(connect, Math.min(500 * 2 ** attempt++, 5000));
    };
  };
  const online = () => {
    if (lostSince && !ws) connect();
  };
  window.addEventListener("online", online);
  connect();

  return {
    reconnect() {
      ws?.close();
      lostSince = null;
      connect();
    },
    focus: () => term.focus(),
    dispose() {
      disposed = true;
      if (retry) clearTimeout(retry);
      observer.disconnect();
      window.removeEventListener("resize", refit);
      window.removeEventListener("online", online);
      ws?.close(1000);
      term.dispose();
    },
  };
}
