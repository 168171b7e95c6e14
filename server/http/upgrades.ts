// The one listener of the HTTP server's raw-socket events (docs/decisions/015-unexpected-errors.md).
// Node hands an `upgrade` (and a `CONNECT`) request to its listeners with the socket detached from
// the HTTP machinery: no header or request timeout applies any more, no error listener is left on
// the socket, and whatever a listener throws ends the process. So exactly one listener takes them
// all, inside a try/catch, and every socket it is given is answered: handed to the route whose
// path matches (the live channel, the browser terminal), or refused with a status and destroyed.
// A socket handed to a route must be authenticated within the handshake deadline, and one address
// may have only a few such sockets waiting at once (behind a proxy, the client's address as
// TRUST_PROXY reads it). The route says when its socket is authenticated (`claim.authenticated()`),
// which ends both.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { addressKey } from "#server/core/ratelimit.ts";
import { clientIp, requestUrl } from "./http.ts";
import type { Logger } from "#server/logger.ts";
import { acceptRequestId, REQUEST_ID_HEADER, runInRequest } from "./request-context.ts";

export interface UpgradeClaim {
  /** The route's pattern matched on the path. */
  match: RegExpExecArray;
  /** The request's URL (path and query as the client sent them). */
  url: URL;
  /** The client's address (TRUST_PROXY applied). */
  address: string;
  /** The socket now belongs to someone: the handshake deadline and the address's count end. */
  authenticated(): void;
}

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, claim: UpgradeClaim) => void;

export interface UpgradeOptions {
  log: Pick<Logger, "debug" | "warn" | "error">;
  /** Reverse proxies in front (TRUST_PROXY): who the per-address count is kept under. */
  trustProxy?: number;
  /** Time from the request to `authenticated()` before the socket is cut (default 10 s). */
  handshakeMs?: number;
  /** Sockets of one address waiting for authentication at once (default 16); beyond, 429. A
   *  handshake waits only while its credential is looked up (milliseconds), so this is reached by
   *  a flood, not by the pages of an office behind one address reconnecting together. */
  maxPendingPerAddress?: number;
  /** Such sockets in all (default 512); beyond, 503. */
  maxPending?: number;
}

export const UPGRADE_LIMITS = { handshakeMs: 10_000, maxPendingPerAddress: 16, maxPending: 512 };

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  503: "Service Unavailable",
};

/** Answers a detached socket with a status, then closes it whatever the client does. */
export function refuseSocket(socket: Duplex, status: number) {
  if (socket.destroyed) return;
  try {
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  } catch {
    // already gone
  }
  // The server's sockets allow half-open connections: end() alone would wait for the client.
  socket.once("finish", () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}

export function createUpgradeDispatcher(server: Server, opts: UpgradeOptions) {
  const { log } = opts;
  const handshakeMs = opts.handshakeMs ?? UPGRADE_LIMITS.handshakeMs;
  const perAddress = opts.maxPendingPerAddress ?? UPGRADE_LIMITS.maxPendingPerAddress;
  const maxPending = opts.maxPending ?? UPGRADE_LIMITS.maxPending;
  const routes: { pattern: RegExp; handle: UpgradeHandler }[] = [];
  /** Sockets handed to a route and not yet authenticated, by address. */
  const pending = new Map<string, number>();
  let pendingTotal = 0;
  const sockets = new Set<Duplex>();

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    // The HTTP server removed its own: a reset from the client would be an uncaught 'error'.
    socket.on("error", (e) => log.debug(`upgrade: socket: ${e.message}`));
    const ctx = { id: acceptRequestId(headerOf(req, REQUEST_ID_HEADER)) };
    runInRequest(ctx, () => {
      try {
        dispatch(req, socket, head);
      } catch (e) {
        log.error(`upgrade ${pathForLog(req)}: a handler failed`, e);
        if (!socket.destroyed) refuseSocket(socket, 400);
      }
    });
  }

  function dispatch(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = requestUrl(req.url, "http://upgrade.invalid");
    if (!url || req.method !== "GET") return refuseSocket(socket, url ? 405 : 400);
    let route: (typeof routes)[number] | undefined;
    let match: RegExpExecArray | null = null;
    for (const r of routes)
      if ((match = r.pattern.exec(url.pathname))) {
        route = r;
        break;
      }
    if (!route || !match) return refuseSocket(socket, 404);

    const address = addressKey(clientIp(req, opts.trustProxy ?? 0));
    const waiting = pending.get(address) ?? 0;
    if (waiting >= perAddress) return refuseSocket(socket, 429);
    if (pendingTotal >= maxPending) return refuseSocket(socket, 503);
    pending.set(address, waiting + 1);
    pendingTotal++;
    sockets.add(socket);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      pendingTotal--;
      const left = (pending.get(address) ?? 1) - 1;
      if (left > 0) pending.set(address, left);
      else pending.delete(address);
    };
    const deadline = setTimeout(() => {
      log.debug(`upgrade ${url.pathname}: not authenticated within ${handshakeMs} ms`);
      settle();
      socket.destroy();
    }, handshakeMs);
    deadline.unref();
    socket.once("close", () => {
      settle();
      sockets.delete(socket);
    });
    route.handle(req, socket, head, { match, url, address, authenticated: settle });
  }

  // CONNECT (a proxy's method): not ours. Without a listener Node drops the socket unanswered.
  function onConnect(_req: IncomingMessage, socket: Duplex) {
    socket.on("error", () => {});
    refuseSocket(socket, 405);
  }

  server.on("upgrade", onUpgrade);
  server.on("connect", onConnect);

  return {
    /** Upgrades whose path matches `pattern` go to `handle`; returns the way to take it back. */
    route(pattern: RegExp, handle: UpgradeHandler) {
      const r = { pattern, handle };
      routes.push(r);
      return () => {
        const i = routes.indexOf(r);
        if (i !== -1) routes.splice(i, 1);
      };
    },
    /** Sockets waiting for authentication (tests). */
    pending: () => pendingTotal,
    close() {
      server.off("upgrade", onUpgrade);
      server.off("connect", onConnect);
      for (const s of sockets) s.destroy();
    },
  };
}
export type UpgradeDispatcher = ReturnType<typeof createUpgradeDispatcher>;

const headerOf = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A client's request target for a log line: bounded, printable. */
function pathForLog(req: IncomingMessage) {
  return JSON.stringify((req.url ?? "").slice(0, 100));
}
