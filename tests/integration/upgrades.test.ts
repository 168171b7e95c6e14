// The upgrade dispatcher's own rules (server/http/upgrades.ts), on a real HTTP server and real sockets:
// a socket handed to a route that does not authenticate it in time is cut at the handshake
// deadline; one address may hold only a few such sockets at once (behind a proxy, counted by the
// address the proxy saw); once authenticated a socket is no longer counted or cut; a route that
// throws gets its socket answered 400, and the process goes on. The route here completes the
// WebSocket handshake and then authenticates only when the test says so, as a slow sign-in would.
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import WebSocket, { WebSocketServer } from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "#server/logger.ts";
import { createUpgradeDispatcher, type UpgradeClaim, type UpgradeDispatcher } from "#server/http/upgrades.ts";

const log = createLogger("silent");
let server: Server;
let upgrades: UpgradeDispatcher;
let base: string;
const claims: UpgradeClaim[] = [];

async function start(opts: { handshakeMs?: number; maxPendingPerAddress?: number; trustProxy?: number }) {
  server = createServer((_req, res) => res.end("ok"));
  upgrades = createUpgradeDispatcher(server, { log, ...opts });
  const wss = new WebSocketServer({ noServer: true });
  upgrades.route(/^\/slow$/, (req, socket, head, claim) => {
    claims.push(claim);
    wss.handleUpgrade(req, socket, head, () => {});
  });
  upgrades.route(/^\/throws$/, () => {
    throw new Error("a route's mistake");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
}

afterEach(async () => {
  claims.length = 0;
  upgrades?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

/** Opens a WebSocket; resolves with how it ended (or "open" while it is open) and when. */
function open(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}${path}`, { headers });
  const t0 = Date.now();
  const opened = new Promise<boolean>((r) => {
    ws.once("open", () => r(true));
    ws.once("unexpected-response", (_req, res) => {
      r(false);
      status = res.statusCode ?? 0;
    });
    ws.once("error", () => r(false));
  });
  let status = 0;
  const closed = new Promise<number>((r) => ws.once("close", () => r(Date.now() - t0)));
  return { ws, opened, closed, status: () => status };
}

describe("the upgrade dispatcher", () => {
  it("cuts a socket that is not authenticated within the handshake deadline", async () => {
    await start({ handshakeMs: 300 });
    const c = open("/slow");
    expect(await c.opened).toBe(true);
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(2000);
    expect(upgrades.pending()).toBe(0);
  });

  it("keeps an authenticated socket past the deadline, and no longer counts it", async () => {
    await start({ handshakeMs: 200, maxPendingPerAddress: 1 });
    const c = open("/slow");
    expect(await c.opened).toBe(true);
    claims[0]!.authenticated();
    expect(upgrades.pending()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    // Its address may open another one now.
    const next = open("/slow");
    expect(await next.opened).toBe(true);
    c.ws.terminate();
    next.ws.terminate();
  });

  it("lets one address hold only a few sockets waiting for authentication (429 beyond)", async () => {
    await start({ handshakeMs: 5000, maxPendingPerAddress: 3 });
    const held = [open("/slow"), open("/slow"), open("/slow")];
    expect(await Promise.all(held.map((c) => c.opened))).toEqual([true, true, true]);
    const refused = open("/slow");
    expect(await refused.opened).toBe(false);
    expect(refused.status()).toBe(429);
    // When one goes, there is room again.
    held[0]!.ws.terminate();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    const again = open("/slow");
    expect(await again.opened).toBe(true);
    for (const c of [...held, again]) c.ws.terminate();
  });

  it("behind a proxy, counts each client's address apart (TRUST_PROXY)", async () => {
    await start({ handshakeMs: 5000, maxPendingPerAddress: 1, trustProxy: 1 });
    const a = open("/slow", { "x-forwarded-for": "203.0.113.1" });
    const b = open("/slow", { "x-forwarded-for": "203.0.113.2" });
    expect([await a.opened, await b.opened]).toEqual([true, true]);
    expect(claims.map((c) => c.address).sort()).toEqual(["203.0.113.1", "203.0.113.2"]);
    const again = open("/slow", { "x-forwarded-for": "198.51.100.9, 203.0.113.1" });
    expect(await again.opened).toBe(false);
    expect(again.status()).toBe(429);
    a.ws.terminate();
    b.ws.terminate();
  });

  it("answers a route that throws with 400, and unknown paths with 404; the server goes on", async () => {
    await start({});
    const thrown = open("/throws");
    expect(await thrown.opened).toBe(false);
    expect(thrown.status()).toBe(400);
    const unknown = open("/nobody");
    expect(await unknown.opened).toBe(false);
    expect(unknown.status()).toBe(404);
    // A raw upgrade that resets right away, and CONNECT: neither reaches the process.
    await new Promise<void>((resolve) => {
      const s = connect((server.address() as { port: number }).port, "127.0.0.1", () => {
        s.write(
          "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        );
        s.resetAndDestroy();
        resolve();
      });
    });
    const answer = await new Promise<string>((resolve) => {
      const s = connect((server.address() as { port: number }).port, "127.0.0.1", () => s.write("CONNECT x:1 HTTP/1.1\r\nHost: x:1\r\n\r\n"));
      let got = "";
      s.on("data", (d) => (got += d));
      s.on("close", () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 405/);
    const res = await fetch(base.replace("ws:", "http:"));
    expect(await res.text()).toBe("ok");
  });
});
