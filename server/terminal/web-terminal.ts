// The browser terminal's WebSocket: /ws/terminal/{deployment id} (protocol in
// shared/contract/terminal.ts, choices in docs/decisions/013-browser-terminal.md).
//
// Who may open it: a page of this site (the handshake's Origin must be PUBLIC_URL's origin; a
// WebSocket is not bound by CORS, and a sibling subdomain counts as same-site for SameSite
// cookies) signed in with the session cookie, as the deployment's owner, once it is ready. No
// token is ever put in a page. A socket lives only as long as its web session: sign-out or a
// password change closes it (the shell then waits out its grace period, for its owner only).
// Connection attempts are rate-limited per user; the shells themselves are web-shells.ts.
import type { IncomingMessage } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";
import type { Deployments } from "#server/core/deployments/index.ts";
import type { SessionEnded, WebSessions } from "#server/core/auth/web-sessions.ts";
import { RecentBuckets } from "#server/gateway/limits.ts";
import { clientIp } from "#server/http/http.ts";
import type { Logger } from "#server/logger.ts";
import { sessionSockets } from "#server/http/session-sockets.ts";
import type { UpgradeClaim, UpgradeDispatcher } from "#server/http/upgrades.ts";
import { TERMINAL_CLOSE, TERMINAL_TEXT } from "#shared/contract/terminal.ts";
import type { WebShells } from "./web-shells.ts";

export const TERMINAL_PATH = /^\/ws\/terminal\/([0-9a-f-]{36})\/?$/;
/** Opening attempts per user: 10 at once, then one every 2 s (each may start an exec). */
const OPEN_RATE = { capacity: 10, perSecond: 0.5 };
/** One message: a paste of up to 64 KiB, or a control message. */
const MAX_PAYLOAD = 64 * 1024;
/** Users whose opening budget is remembered; past it the least recently seen is forgotten (a
 *  forgotten user starts with a full budget, as everyone did when the whole map was cleared). */
const OPENS_REMEMBERED = 10_000;

const query = z.object({
  cols: z.coerce.number().int().min(1).max(1000).catch(80),
  rows: z.coerce.number().int().min(1).max(1000).catch(24),
  shell: z
    .string()
    .regex(/^[0-9a-f-]{36}$/)
    .optional()
    .catch(undefined),
  offset: z.coerce.number().int().min(0).optional().catch(undefined),
});

export interface WebTerminalDeps {
  deployments: Pick<Deployments, "targetOf">;
  webSessions: Pick<WebSessions, "fromCookieHeader" | "onEnded" | "readByKey">;
  /** Sessions ended on other replicas (server/db/cluster.ts): their sockets here close too. */
  sessionsEndedElsewhere?: (listener: (e: SessionEnded) => void) => () => void;
  /** Tests shorten the periodic re-check. */
  revalidateMs?: number;
  shells: WebShells;
  /** PUBLIC_URL's origin: the only Origin a handshake may carry. */
  publicOrigin: string;
  trustProxy: number;
  log: Logger;
}

/** Serves the browser terminal's upgrades, which the server's one dispatcher
 *  (server/http/upgrades.ts) hands over by path. */
export function attachWebTerminal(upgrades: UpgradeDispatcher, deps: WebTerminalDeps) {
  const { deployments, webSessions, shells, publicOrigin, log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const opens = new RecentBuckets(OPEN_RATE.capacity, OPEN_RATE.perSecond, OPENS_REMEMBERED);
  const refuse = (ws: WebSocket) => ws.close(TERMINAL_CLOSE.unauthorized, "Authentication required");
  // Sign-out and password changes end sessions, here or on another replica: their sockets go.
  // A page whose network went away is noticed by the pings, so its shell starts waiting for it.
  const open = sessionSockets({ ...deps, refuse, label: "terminal" });

  const unroute = upgrades.route(TERMINAL_PATH, (req, socket, head, claim) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on("error", (e) => log.debug(`terminal ${claim.match[1]}: ${e.message}`));
      serve(ws, claim.match[1]!, req, claim).catch((e) => {
        log.error(`terminal ${claim.match[1]}: serving the socket failed`, e);
        ws.terminate();
      });
    });
  });

  async function serve(ws: WebSocket, deploymentId: string, req: IncomingMessage, claim: UpgradeClaim) {
    // Accept first, then refuse with a close reason: the page can say why.
    if (req.headers.origin !== publicOrigin) return refuse(ws);
    const session = await webSessions.fromCookieHeader(req.headers.cookie).catch(() => null);
    if (!session) return refuse(ws);
    const userId = session.userId;
    if (!opens.take(userId)) return ws.close(TERMINAL_CLOSE.tooMany, "Too many attempts: wait a few seconds");
    const target = await deployments.targetOf(deploymentId, userId).catch((e: Error) => {
      log.warn(`terminal: looking up ${deploymentId}: ${e.message}`);
      return null;
    });
    if (!target) return ws.close(TERMINAL_CLOSE.notFound, "Deployment not found");
    if (target === "not_ready") return ws.close(TERMINAL_CLOSE.notReady, TERMINAL_TEXT.notReady);
    if (ws.readyState !== ws.OPEN) return; // the page left while we looked

    open.add(ws, { userId, sessionKey: session.key });
    claim.authenticated();
    const q = query.parse(Object.fromEntries(claim.url.searchParams));
    shells.attach(ws, { userId, target, cols: q.cols, rows: q.rows, shellId: q.shell, offset: q.offset, remote: clientIp(req, deps.trustProxy) });
  }

  return {
    close() {
      unroute();
      open.close();
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
