// WebSockets that live only as long as what authenticated them: the live channel (server/http/live.ts)
// and the browser terminal (server/terminal/web-terminal.ts). Ending a web session (sign-out,
// password change), here or on another replica, closes its sockets at once; every socket's
// session is read again every minute, because sessions also expire or lose their row elsewhere.
// Both keep their sockets alive with pings, so a page whose network went away is noticed.
import type { WebSocket } from "ws";
import type { SessionEnded, WebSessions } from "#server/core/auth/web-sessions.ts";
import type { Logger } from "#server/logger.ts";

/** How often every open socket's web session is checked again. */
const REVALIDATE_MS = 60_000;
const PING_MS = 25_000;

/** Who a socket belongs to: the user, and the web session's key (null for a bearer token, whose
 *  socket ends with the token instead). */
export interface SocketOwner {
  userId: string;
  sessionKey: string | null;
}

export interface SessionSocketsDeps {
  webSessions: Pick<WebSessions, "onEnded" | "readByKey">;
  /** Sessions ended on other replicas (server/db/cluster.ts). */
  sessionsEndedElsewhere?: (listener: (e: SessionEnded) => void) => () => void;
  /** Tests shorten the periodic re-check. */
  revalidateMs?: number;
  /** How a socket is closed when its session ends (each channel has its close code). */
  refuse: (ws: WebSocket) => void;
  log: Logger;
  /** Names the channel in log lines. */
  label: string;
}

export function sessionSockets<O extends SocketOwner>(deps: SessionSocketsDeps) {
  const { webSessions, refuse, log, label } = deps;
  const open = new Map<WebSocket, O>();
  const closeWhere = (match: (o: O) => boolean) => {
    for (const [ws, o] of open) if (match(o)) refuse(ws);
  };
  const onEnded = (e: SessionEnded) => closeWhere((o) => (e.key ? o.sessionKey === e.key : o.userId === e.userId));
  const unsubscribe = webSessions.onEnded(onEnded);
  const unsubscribeElsewhere = deps.sessionsEndedElsewhere?.(onEnded);
  const revalidate = setInterval(() => void recheck(), deps.revalidateMs ?? REVALIDATE_MS);
  revalidate.unref();

  async function recheck() {
    const keys = new Map<string, string>(); // session key -> user
    for (const o of open.values()) if (o.sessionKey) keys.set(o.sessionKey, o.userId);
    for (const [key, userId] of keys) {
      try {
        const s = await webSessions.readByKey(key);
        if (!s || s.userId !== userId) closeWhere((o) => o.sessionKey === key);
      } catch (e) {
        log.debug(`${label}: re-checking a session failed: ${(e as Error).message}`);
      }
    }
  }

  return {
    /** Binds an authenticated socket to its owner's session, and pings it while it is open. */
    add(ws: WebSocket, owner: O) {
      open.set(ws, owner);
      let alive = true;
      ws.on("pong", () => (alive = true));
      const ping = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, PING_MS);
      ws.on("close", () => {
        clearInterval(ping);
        open.delete(ws);
      });
    },
    close() {
      clearInterval(revalidate);
      unsubscribe();
      unsubscribeElsewhere?.();
    },
  };
}
