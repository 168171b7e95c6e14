// The browser terminal's WebSocket: /ws/terminal/{deployment id} (protocol in
// shared/contract/terminal.ts, choices in docs/decisions/013-browser-terminal.md).
//
// Who may open it: a page of this site (the handshake's Origin must be PUBLIC_URL's origin; a
// WebSocket is not bound by CORS, and a sibling subdomain counts as same-site for SameSite
// cookies) signed in with the session cookie, as the deployment's owner, once it is ready. No
// token is ever put in a page. A socket lives only as long as its web session: sign-out or a
// password change closes it (the shell then waits out its grace period, for its owner only).
// Connection attempts are rate-limited per user; the shells themselves are web-shells.ts.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";
import type { Deployments } from "../core/deployments/index.ts";
import type { WebSessions } from "../core/web-sessions.ts";
import { TokenBucket } from "../gateway/limits.ts";
import { clientIp } from "../http.ts";
import type { Logger } from "../logger.ts";
import { TERMINAL_CLOSE, TERMINAL_TEXT } from "../../shared/contract/terminal.ts";
import type { WebShells } from "./web-shells.ts";

export const TERMINAL_PATH = /^\/ws\/terminal\/([0-9a-f-]{36})\/?$/;
const PING_MS = 25_000;
/** Opening attempts per user: 10 at once, then one every 2 s (each may start an exec). */
const OPEN_RATE = { capacity: 10, perSecond: 0.5 };
/** One message: a paste of up to 64 KiB, or a control message. */
const MAX_PAYLOAD = 64 * 1024;

const query = z.object({
  cols: z.coerce.number().int().min(1).max(1000).catch(80),
  rows: z.coerce.number().int().min(1).max(1000).catch(24),
  shell: z.string().regex(/^[0-9a-f-]{36}$/).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).optional().catch(undefined),
});

export interface WebTerminalDeps {
  deployments: Pick<Deployments, "targetOf">;
  webSessions: Pick<WebSessions, "fromCookieHeader" | "onEnded">;
  shells: WebShells;
  /** PUBLIC_URL's origin: the only Origin a handshake may carry. */
  publicOrigin: string;
  trustProxy: number;
  log: Logger;
}

export function attachWebTerminal(server: Server, deps: WebTerminalDeps) {
  const { deployments, webSessions, shells, publicOrigin, log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const opens = new Map<string, TokenBucket>();
  const open = new Map<WebSocket, { userId: string; sessionKey: string }>();

  const unsubscribe = webSessions.onEnded((e) => {
    for (const [ws, c] of open) if (e.key ? c.sessionKey === e.key : c.userId === e.userId) ws.close(TERMINAL_CLOSE.unauthorized, "Authentication required");
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://internal");
    const m = TERMINAL_PATH.exec(url.pathname);
    if (!m) return; // the live channel's (server/live.ts)
    wss.handleUpgrade(req, socket, head, (ws) => void serve(ws, m[1]!, req, url.searchParams));
  };
  server.on("upgrade", onUpgrade);

  async function serve(ws: WebSocket, deploymentId: string, req: IncomingMessage, params: URLSearchParams) {
    ws.on("error", (e) => log.debug(`terminal ${deploymentId}: ${e.message}`));
    // Accept first, then refuse with a close reason: the page can say why.
    if (req.headers.origin !== publicOrigin) return ws.close(TERMINAL_CLOSE.unauthorized, "Authentication required");
    const session = await webSessions.fromCookieHeader(req.headers.cookie).catch(() => null);
    if (!session) return ws.close(TERMINAL_CLOSE.unauthorized, "Authentication required");
    const userId = session.userId;
    let bucket = opens.get(userId);
    if (!bucket) {
      if (opens.size > 10_000) opens.clear();
      bucket = new TokenBucket(OPEN_RATE.capacity, OPEN_RATE.perSecond);
      opens.set(userId, bucket);
    }
    if (!bucket.take()) return ws.close(TERMINAL_CLOSE.tooMany, "Too many attempts: wait a few seconds");
    const target = await deployments.targetOf(deploymentId, userId).catch((e: Error) => {
      log.warn(`terminal: looking up ${deploymentId}: ${e.message}`);
      return null;
    });
    if (!target) return ws.close(TERMINAL_CLOSE.notFound, "Deployment not found");
    if (target === "not_ready") return ws.close(TERMINAL_CLOSE.notReady, TERMINAL_TEXT.notReady);
    if (ws.readyState !== ws.OPEN) return; // the page left while we looked

    open.set(ws, { userId, sessionKey: session.key });
    let alive = true;
    ws.on("pong", () => (alive = true));
    // A page whose network went away is noticed, so its shell starts waiting for it to return.
    const ping = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, PING_MS);
    ws.on("close", () => {
      clearInterval(ping);
      open.delete(ws);
    });
    const q = query.parse(Object.fromEntries(params));
    shells.attach(ws, { userId, target, cols: q.cols, rows: q.rows, shellId: q.shell, offset: q.offset, remote: clientIp(req, deps.trustProxy) });
  }

  return {
    close() {
      unsubscribe();
      server.off("upgrade", onUpgrade);
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
