// The SSH gateway: an SSH server (ssh2) that lets a person into their deployment with plain
// `ssh`, `scp` and `sftp`. Public-key authentication only; `resolve` (the deployments service)
// says where a key may go; every shell, command and sftp subsystem becomes an exec in that
// container through the runtime. Disconnecting kills what the connection started.
// Protocol facts it relies on (two-round public-key auth, exit status before the end of the
// stream, resize after exec start) are in docs/decisions/004-ssh-gateway.md. The parts:
//   admission.ts    who gets a connection at all (per address, per owner, overall)
//   auth.ts         public-key authentication and key lookup through `resolve`
//   channels.ts     the requests of an SSH session channel (pty, env, signal, shell, exec, sftp)
//   exec-bridge.ts  one channel bridged to one exec in the deployment's container (also the
//                   browser terminal's, server/terminal/), recorded on the way
//   shell.ts        what every shell has, whoever carries it: resize, signals, hang-up, ending
//   connection.ts   a connection's state, and how it ends
//   messages.ts     what the person at the client is told
import { createServer, type Server as NetServer, type Socket } from "node:net";
import ssh2, { type Connection } from "ssh2";
import { addressRefusal, hardCapReached, overCapacity, type AdmissionLimits } from "./admission.ts";
import { createAuthenticator } from "./auth.ts";
import { createChannelHandler } from "./channels.ts";
import { createHangUp, disconnect, endConnection, sleep, type Conn } from "./connection.ts";
import { loadOrCreateHostKey } from "./hostkey.ts";
import { addressKey } from "./limits.ts";
import { MESSAGES } from "./messages.ts";
import type { Gateway, GatewayLogger, GatewayOptions } from "./types.ts";

export { MESSAGES } from "./messages.ts";

const { Server } = ssh2;

/**
 * Key exchanges offered: curve25519 first (what OpenSSH picks), then finite-field groups of at
 * most 4096 bits for older clients. No group-exchange (the client picks a group up to 8192 bits)
 * and no group18: each costs the server a lot of CPU per connection, before authentication.
 */
export const KEX = ["curve25519-sha256", "curve25519-sha256@libssh.org", "diffie-hellman-group16-sha512", "diffie-hellman-group14-sha256"];

const silent: GatewayLogger = { debug() {}, info() {}, warn() {}, error() {} };

export function createGateway(options: GatewayOptions): Gateway {
  const log = options.log ?? silent;
  const { runtime, resolve } = options;
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const limits: AdmissionLimits = {
    maxConnections: options.maxConnections ?? 256,
    maxPerAddress: options.maxConnectionsPerAddress ?? 32,
    maxUnauthenticatedPerAddress: options.maxUnauthenticatedPerAddress ?? 8,
    maxPerUser: options.maxConnectionsPerUser ?? 8,
  };
  const maxChannels = options.maxSessionsPerConnection ?? 4;

  const hostKey = loadOrCreateHostKey(options.hostKeyPath, (m) => log.warn(m));
  if (hostKey.created) log.info(`ssh: created host key ${options.hostKeyPath} (${hostKey.fingerprint})`);

  const conns = new Set<Conn>();
  const bySocket = new WeakMap<Socket, Conn>();
  let nextId = 1;
  let closing = false;
  const hangUp = createHangUp(options.killGraceMs ?? 1000, log);
  const auth = createAuthenticator({ resolve, log, conns, maxAuthAttempts: options.maxAuthAttempts ?? 10, maxPerUser: limits.maxPerUser });
  const onSshSession = createChannelHandler({
    runtime,
    log,
    hangUp,
    sftpServer: options.sftpServerPath ?? "/usr/lib/openssh/sftp-server",
    recorder: options.recorder,
  });
  const finish = (conn: Conn) => endConnection(conn, conns, hangUp, log);

  const ssh = new Server({
    hostKeys: [hostKey.privateKey],
    ident: "faultline",
    algorithms: { kex: KEX },
    keepaliveInterval: options.keepaliveIntervalMs ?? 15_000,
    keepaliveCountMax: options.keepaliveCountMax ?? 4,
  } as ConstructorParameters<typeof Server>[0]);

  // Our own TCP listener in front of ssh2's, so the pre-authentication timer and the connection
  // cap also cover clients that never even send their version line.
  const tcp: NetServer = createServer((socket) => {
    if (closing || hardCapReached(conns, limits)) {
      socket.destroy();
      return;
    }
    const address = addressKey(socket.remoteAddress);
    const refusal = addressRefusal(conns, address, limits);
    if (refusal) {
      log.debug(`ssh: refused ${socket.remoteAddress}: ${refusal}`);
      socket.destroy();
      return;
    }
    const conn: Conn = {
      id: nextId++,
      socket,
      address,
      remote: `${socket.remoteAddress}:${socket.remotePort}`,
      startedAt: Date.now(),
      authAttempts: 0,
      refusals: new Set(),
      outcome: "none",
      overCapacity: overCapacity(conns, limits),
      channels: new Set(),
      channelsTotal: 0,
      closed: false,
    };
    conns.add(conn);
    bySocket.set(socket, conn);
    socket.setNoDelay(true);
    socket.on("error", (e) => log.debug(`ssh: socket ${conn.remote}: ${e.message}`));
    socket.once("close", () => finish(conn));
    conn.authTimer = setTimeout(() => {
      if (conn.outcome !== "ok") {
        conn.outcome = conn.outcome === "refused" ? "refused" : "timeout";
        socket.destroy();
      }
    }, authTimeoutMs);
    conn.authTimer.unref();
    ssh.injectSocket(socket);
  });
  tcp.on("error", (e) => log.error(`ssh: listener: ${e.message}`));

  ssh.on("connection", (client: Connection) => {
    // ssh2 emits 'error' for a client's protocol errors, resets and keep-alive timeouts (and for
    // whatever our own listeners throw while it parses a packet): never let one reach the process.
    // First thing: an 'error' with no listener is thrown.
    const socket = (client as unknown as { _sock: Socket })._sock;
    const conn = bySocket.get(socket);
    client.on("error", (e: Error & { level?: string }) => log.debug(`ssh: client ${conn?.remote ?? "?"}: ${e.level ?? ""} ${e.message}`));
    if (!conn) {
      client.end();
      return;
    }
    conn.client = client;
    client.on("authentication", (ctx) => {
      auth.authenticate(conn, ctx).catch((e) => {
        log.error(`ssh: authentication ${conn.remote}`, e);
        try {
          ctx.reject(["publickey"]);
        } catch {
          // already answered
        }
      });
    });
    client.on("ready", () => {
      clearTimeout(conn.authTimer);
      // ssh2 calls a channel of type "session" a session: one shell, command or sftp each.
      client.on("session", (accept, reject) => {
        if (conn.channels.size >= maxChannels) return reject();
        const sshSession = accept();
        if (sshSession) onSshSession(conn, sshSession);
      });
    });
    client.on("close", () => finish(conn));
  });

  return {
    hostKeyFingerprint: hostKey.fingerprint,
    hostPublicKey: hostKey.publicKey,
    listen() {
      return new Promise<number>((resolvePort, reject) => {
        const onError = (e: Error) => reject(e);
        tcp.once("error", onError);
        tcp.listen(options.port, options.host ?? "0.0.0.0", () => {
          tcp.off("error", onError);
          const address = tcp.address();
          const port = typeof address === "object" && address ? address.port : options.port;
          log.info(`ssh: gateway listening on ${options.host ?? "0.0.0.0"}:${port} (host key ${hostKey.fingerprint})`);
          resolvePort(port);
        });
      });
    },
    closeDeployment(deploymentId: string, message = MESSAGES.ended) {
      for (const conn of conns) if (conn.target?.deploymentId === deploymentId) disconnect(conn, message, hangUp);
    },
    closeOwner(userId: string, message = MESSAGES.credentialsChanged) {
      for (const conn of conns) if (conn.target?.userId === userId) disconnect(conn, message, hangUp);
    },
    async close() {
      closing = true;
      const closed = new Promise<void>((r) => tcp.close(() => r()));
      for (const conn of conns) disconnect(conn, MESSAGES.gatewayClosing, hangUp);
      // Give the disconnect messages a moment, then cut what is left.
      await Promise.race([closed, sleep(2500)]);
      for (const conn of conns) conn.socket.destroy();
      await Promise.race([closed, sleep(500)]);
    },
    stats() {
      const byDeployment: Record<string, number> = {};
      for (const c of conns) if (c.target) byDeployment[c.target.deploymentId] = (byDeployment[c.target.deploymentId] ?? 0) + 1;
      return { connections: conns.size, byDeployment, signatureChecks: auth.signatureChecks() };
    },
  };
}
