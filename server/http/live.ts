// The live channel: WebSocket /ws/deployments/{id}. The owner of the deployment receives its
// messages (LiveMessage in core/deployments/model.ts), starting with its current state; anyone else
// is closed with a reason. Termination closes cleanly (1000).
//
// Who is asking (docs/api.md, "Live channel"):
// - a browser: by its sign-in cookie (the web-sessions service), and only from a page of this
//   site: the handshake's Origin must be PUBLIC_URL's origin. WebSockets are not bound by CORS,
//   and a sibling subdomain counts as same-site for SameSite cookies, so without this rule any
//   page could open the channel with the visitor's cookie. No token ever reaches page scripts.
// - another program: `Authorization: Bearer <access token>` (a page cannot set that header on a
//   WebSocket); the socket closes when the token expires.
// A socket lives only as long as what authenticated it: ending the web session (sign-out,
// password change) closes it at once, and every socket's session is re-checked every minute.
import type { IncomingMessage } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import type { Deployments, LiveMessage } from "#server/core/deployments/index.ts";
import { DomainError } from "#server/core/errors.ts";
import type { TokenService } from "#server/core/auth/tokens.ts";
import type { SessionEnded, WebSessions } from "#server/core/auth/web-sessions.ts";
import type { Logger } from "#server/logger.ts";
import { sessionSockets } from "./session-sockets.ts";
import type { UpgradeClaim, UpgradeDispatcher } from "./upgrades.ts";

export const LIVE_PATH = /^\/ws\/deployments\/([0-9a-f-]{36})\/?$/;
/** Close codes in the application range (4000–4999), the HTTP status plus 4000. */
const CLOSE = { unauthorized: 4401, notFound: 4404, tooMany: 4429 } as const;
const AUTH_REQUIRED = "Authentication required";
const NOT_FOUND = "Deployment not found";

/** How a domain error (server/core/errors.ts) ends a socket: a close code and reason. Anything
 *  else reads as "not found": whether someone else's deployment exists stays unsaid. */
function closeFor(e: unknown): [code: number, reason: string] {
  if (e instanceof DomainError && e.kind === "unauthenticated") return [CLOSE.unauthorized, AUTH_REQUIRED];
  if (e instanceof DomainError && e.kind === "rate_limited") return [CLOSE.tooMany, e.detail.slice(0, 120)];
  return [CLOSE.notFound, NOT_FOUND];
}
/** Open channels per user: a page and its reconnects need a few; thousands would be an attack. */
const MAX_PER_USER = 16;

interface Caller {
  userId: string;
  /** The web session's key (the id's hash) for a cookie; null for a bearer token. */
  sessionKey: string | null;
  /** The bearer token's expiry (epoch seconds); null for a cookie. */
  exp: number | null;
}

export interface LiveDeps {
  deployments: Deployments;
  tokens: TokenService;
  webSessions: WebSessions;
  /** Sessions ended on other replicas (server/db/cluster.ts): their sockets here close too. */
  sessionsEndedElsewhere?: (listener: (e: SessionEnded) => void) => () => void;
  /** PUBLIC_URL's origin: the only Origin a browser's handshake may carry. */
  publicOrigin: string;
  log: Logger;
  maxPayload?: number;
  /** Tests shorten the periodic re-check. */
  revalidateMs?: number;
}

/** Serves the live channel's upgrades, which the server's one dispatcher (server/http/upgrades.ts)
 *  hands over by path. */
export function attachLiveChannel(upgrades: UpgradeDispatcher, deps: LiveDeps) {
  const { deployments, tokens, webSessions, publicOrigin, log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayload ?? 4096 });
  const openByUser = new Map<string, number>();
  const refuse = (ws: WebSocket) => ws.close(CLOSE.unauthorized, AUTH_REQUIRED);
  /** Authenticated sockets, with what authenticated them; sign-out, rotation and password
   *  changes end sessions, and their sockets go with them. */
  const open = sessionSockets<Caller>({ ...deps, refuse, label: "live channel" });

  async function authenticate(req: IncomingMessage): Promise<Caller | null> {
    const origin = req.headers.origin;
    // Whatever the credential, a handshake from a page elsewhere is refused.
    if (origin !== undefined && origin !== publicOrigin) return null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (bearer) {
      const t = await tokens.verifyAccessUntil(bearer).catch(() => null);
      return t ? { userId: t.userId, sessionKey: null, exp: t.exp } : null;
    }
    if (origin === undefined) return null; // the cookie is for this site's pages only
    const s = await webSessions.fromCookieHeader(req.headers.cookie);
    return s ? { userId: s.userId, sessionKey: s.key, exp: null } : null;
  }

  const unroute = upgrades.route(LIVE_PATH, (req, socket, head, claim) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      // First: a bad frame while we authenticate is an 'error' event, thrown when unheard.
      ws.on("error", (e) => log.debug(`live channel ${claim.match[1]}: ${e.message}`));
      serve(ws, claim.match[1]!, req, claim).catch((e) => {
        log.error(`live channel ${claim.match[1]}: serving the socket failed`, e);
        ws.terminate();
      });
    });
  });

  async function serve(ws: WebSocket, deploymentId: string, req: IncomingMessage, claim: UpgradeClaim) {
    // Accept first, then refuse with a close reason: a browser sees the reason, not just a
    // failed handshake.
    let caller: Caller | null;
    try {
      caller = await authenticate(req);
    } catch (e) {
      log.warn(`live channel: authentication failed: ${(e as Error).message}`);
      caller = null;
    }
    if (!caller) return refuse(ws);
    const { userId } = caller;
    let current;
    try {
      current = await deployments.get(deploymentId, userId);
    } catch (e) {
      return ws.close(...closeFor(e));
    }
    if (ws.readyState !== ws.OPEN) return; // the client left while we looked
    const count = openByUser.get(userId) ?? 0;
    if (count >= MAX_PER_USER) return ws.close(CLOSE.tooMany, "Too many live connections");
    openByUser.set(userId, count + 1);
    open.add(ws, caller);
    claim.authenticated();
    // A bearer token's socket ends with the token (access tokens cannot be revoked otherwise).
    const expiry = caller.exp === null ? null : setTimeout(() => refuse(ws), Math.max(0, caller.exp * 1000 - Date.now()));
    const send = (m: LiveMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    const stop = deployments.subscribe(deploymentId, (m) => {
      send(m);
      if (m.type === "deployment_update" && (m.status === "terminated" || m.status === "failed")) {
        setTimeout(() => ws.close(1000, m.status === "terminated" ? "Deployment terminated" : "Deployment failed"), 50);
      }
    });
    send({
      type: "deployment_update",
      deployment_id: current.deployment_id,
      status: current.status,
      expires_at: current.expires_at,
      ssh_details: current.ssh_details,
      error_message: current.error_message,
    });
    if (current.status === "terminated") ws.close(1000, "Deployment terminated");

    ws.on("message", () => {}); // nothing to say to us; maxPayload bounds it
    ws.on("close", () => {
      if (expiry) clearTimeout(expiry);
      stop();
      const left = (openByUser.get(userId) ?? 1) - 1;
      if (left > 0) openByUser.set(userId, left);
      else openByUser.delete(userId);
    });
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
