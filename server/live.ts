// The live channel: WebSocket /ws/deployments/{id}?token=<access token>. The owner of the
// deployment receives its messages (LiveMessage in core/deployments.ts), starting with its
// current state; anyone else is closed with a reason. Termination closes cleanly (1000).
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { Deployments, LiveMessage } from "./core/deployments.ts";
import type { TokenService } from "./core/tokens.ts";
import type { Logger } from "./logger.ts";

const PATH = /^\/ws\/deployments\/([0-9a-f-]{36})\/?$/;
/** Close codes in the application range (4000–4999), the HTTP status plus 4000. */
const CLOSE = { unauthorized: 4401, notFound: 4404, tooMany: 4429 } as const;
const PING_MS = 25_000;
/** Open channels per user: a page and its reconnects need a few; thousands would be an attack. */
const MAX_PER_USER = 16;

export function attachLiveChannel(server: Server, deps: { deployments: Deployments; tokens: TokenService; log: Logger; maxPayload?: number }) {
  const { deployments, tokens, log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayload ?? 4096 });
  const openByUser = new Map<string, number>();

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://internal");
    const m = PATH.exec(url.pathname);
    if (!m) {
      // The only WebSocket here (Vite's dev HMR listens on a port of its own).
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => void serve(ws, m[1]!, url.searchParams.get("token")));
  });

  async function serve(ws: WebSocket, deploymentId: string, token: string | null) {
    // Accept first, then refuse with a close reason: a browser sees the reason, not just a
    // failed handshake.
    let userId: string;
    try {
      if (!token) throw new Error("no token");
      userId = await tokens.verifyAccess(token);
    } catch {
      return ws.close(CLOSE.unauthorized, "Authentication required");
    }
    let current;
    try {
      current = await deployments.get(deploymentId, userId);
    } catch {
      return ws.close(CLOSE.notFound, "Deployment not found");
    }
    if (ws.readyState !== ws.OPEN) return; // the client left while we looked
    const open = openByUser.get(userId) ?? 0;
    if (open >= MAX_PER_USER) return ws.close(CLOSE.tooMany, "Too many live connections");
    openByUser.set(userId, open + 1);
    const send = (m: LiveMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    const stop = deployments.subscribe(deploymentId, (m) => {
      send(m);
      if (m.type === "deployment_update" && (m.status === "terminated" || m.status === "failed")) {
        setTimeout(() => ws.close(1000, m.status === "terminated" ? "Deployment terminated" : "Deployment failed"), 50);
      }
    });
    send({ type: "deployment_update", deployment_id: current.deployment_id, status: current.status, expires_at: current.expires_at, ssh_details: current.ssh_details, error_message: current.error_message });
    if (current.status === "terminated") ws.close(1000, "Deployment terminated");

    let alive = true;
    ws.on("pong", () => (alive = true));
    const ping = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, PING_MS);
    ws.on("message", () => {}); // nothing to say to us; maxPayload bounds it
    ws.on("close", () => {
      clearInterval(ping);
      stop();
      const left = (openByUser.get(userId) ?? 1) - 1;
      if (left > 0) openByUser.set(userId, left);
      else openByUser.delete(userId);
    });
    ws.on("error", (e) => log.debug(`live channel ${deploymentId}: ${e.message}`));
  }

  return {
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
