// The SSH gateway: an SSH server (ssh2) that lets a person into their deployment with plain
// `ssh`, `scp` and `sftp`. Public-key authentication only; `resolve` (the deployments service)
// says where a key may go; every shell, command and sftp subsystem becomes an exec in that
// container through the runtime. Disconnecting kills what the connection started.
// Protocol facts it relies on (two-round public-key auth, exit status before the end of the
// stream, resize after exec start) are in docs/decisions/004-ssh-gateway.md.
import { createServer, type Server as NetServer, type Socket } from "node:net";
import type { Readable } from "node:stream";
import ssh2, { type AuthContext, type Connection, type PublicKeyAuthContext, type ServerChannel, type Session } from "ssh2";
import type { ExecOptions, ExecSession } from "../runtime/types.ts";
import { sshKeyProblem } from "../core/sshkeys.ts";
import { sendAuthBanner } from "./banner.ts";
import { fingerprint, loadOrCreateHostKey } from "./hostkey.ts";
import { acceptEnv, addressKey, Coalescer, TokenBucket } from "./limits.ts";
import type { Gateway, GatewayLogger, GatewayOptions, Refusal, Target } from "./types.ts";

const { Server, utils } = ssh2;

export const MESSAGES = {
  noDeployment: "No running faultline deployment for this key. Start a challenge on the website first, and use the SSH key registered in your settings.",
  keysOnly: "faultline accepts SSH keys only: add your public key in your settings on the website.",
  busy: "The faultline SSH gateway is busy right now: try again in a minute.",
  tooManyForUser: (n: number) => `You already have ${n} open SSH connection${n === 1 ? "" : "s"} to your deployments: close one and try again.`,
  tooManyAttempts: "Too many authentication attempts: connection closed.",
  resolveFailed: "faultline could not check this key right now: try again in a moment.",
  ended: "This faultline deployment has ended: connection closed.",
  gatewayClosing: "The faultline SSH gateway is restarting: connect again in a moment.",
};

/**
 * Key exchanges offered: curve25519 first (what OpenSSH picks), then finite-field groups of at
 * most 4096 bits for older clients. No group-exchange (the client picks a group up to 8192 bits)
 * and no group18: each costs the server a lot of CPU per connection, before authentication.
 */
export const KEX = ["curve25519-sha256", "curve25519-sha256@libssh.org", "diffie-hellman-group16-sha512", "diffie-hellman-group14-sha256"];

/** `signal` requests per session: a burst of 8, then 2 a second (each one walks the container's
 *  processes). `window-change`: the last size within 100 ms wins, at most 4 at once then 4 a second
 *  reach the engine (each is an engine API call). */
const SIGNAL_RATE = { capacity: 8, perSecond: 2 };
const RESIZE_RATE = { capacity: 4, perSecond: 4, coalesceMs: 100 };

interface Conn {
  id: number;
  socket: Socket;
  client?: Connection;
  remote: string;
  /** Who the per-address caps count this connection under (addressKey). */
  address: string;
  startedAt: number;
  sshUser?: string;
  target?: Target;
  limitKey?: string;
  authAttempts: number;
  refusals: Set<string>;
  outcome: "none" | "refused" | "ok" | "timeout";
  overCapacity: boolean;
  sessions: Set<SessionState>;
  sessionCount: number;
  sessionsTotal: number;
  closed: boolean;
  disconnecting?: boolean;
  authTimer?: NodeJS.Timeout;
}

interface SessionState {
  pty?: { term: string; cols: number; rows: number };
  env: Record<string, string>;
  signals: TokenBucket;
  resizer: Coalescer<{ cols: number; rows: number }>;
  channel?: ServerChannel;
  exec?: ExecSession;
  kind?: "shell" | "exec" | "sftp";
  ended: boolean;
}

const silent: GatewayLogger = { debug() {}, info() {}, warn() {}, error() {} };

export function createGateway(options: GatewayOptions): Gateway {
  const log = options.log ?? silent;
  const { runtime, resolve } = options;
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const maxConnections = options.maxConnections ?? 256;
  const maxPerAddress = options.maxConnectionsPerAddress ?? 32;
  const maxUnauthenticatedPerAddress = options.maxUnauthenticatedPerAddress ?? 8;
  const maxPerUser = options.maxConnectionsPerUser ?? 8;
  const maxSessions = options.maxSessionsPerConnection ?? 4;
  const maxAuthAttempts = options.maxAuthAttempts ?? 10;
  const sftpServer = options.sftpServerPath ?? "/usr/lib/openssh/sftp-server";
  const killGraceMs = options.killGraceMs ?? 1000;

  const hostKey = loadOrCreateHostKey(options.hostKeyPath, (m) => log.warn(m));
  if (hostKey.created) log.info(`ssh: created host key ${options.hostKeyPath} (${hostKey.fingerprint})`);

  const conns = new Set<Conn>();
  const bySocket = new WeakMap<Socket, Conn>();
  let nextId = 1;
  let closing = false;
  let signatureChecks = 0;

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
    if (closing || conns.size >= maxConnections + 32) {
      socket.destroy();
      return;
    }
    // One address cannot take the whole gateway: it may hold a few connections that have not
    // authenticated yet (each is held for at most authTimeoutMs) and a bounded number in all.
    const address = addressKey(socket.remoteAddress);
    let fromAddress = 0;
    let unauthenticated = 0;
    for (const c of conns) {
      if (c.address !== address) continue;
      fromAddress++;
      if (c.outcome !== "ok") unauthenticated++;
    }
    if (fromAddress >= maxPerAddress || unauthenticated >= maxUnauthenticatedPerAddress) {
      log.debug(`ssh: refused ${socket.remoteAddress}: ${fromAddress} connections from it, ${unauthenticated} not authenticated`);
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
      overCapacity: conns.size >= maxConnections,
      sessions: new Set(),
      sessionCount: 0,
      sessionsTotal: 0,
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
    const socket = (client as unknown as { _sock: Socket })._sock;
    const conn = bySocket.get(socket);
    if (!conn) {
      client.end();
      return;
    }
    conn.client = client;
    // ssh2 emits 'error' for a client's protocol errors, resets and keep-alive timeouts:
    // never let one reach the process.
    client.on("error", (e: Error & { level?: string }) => log.debug(`ssh: client ${conn.remote}: ${e.level ?? ""} ${e.message}`));
    client.on("authentication", (ctx) => {
      authenticate(conn, ctx).catch((e) => {
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
      client.on("session", (accept, reject) => {
        if (conn.sessionCount >= maxSessions) return reject();
        const session = accept();
        if (session) onSession(conn, session);
      });
    });
    client.on("close", () => finish(conn));
  });

  // ------------------------------------------------------------------ authentication

  function refuse(conn: Conn, ctx: AuthContext, message: string) {
    if (!conn.refusals.has(message) && conn.client) {
      conn.refusals.add(message);
      sendAuthBanner(conn.client, message);
    }
    conn.outcome = "refused";
    ctx.reject(["publickey"]);
  }

  async function authenticate(conn: Conn, ctx: AuthContext) {
    conn.sshUser = ctx.username;
    if (ctx.method === "none") return ctx.reject(["publickey"]);
    if (ctx.method !== "publickey") return refuse(conn, ctx, MESSAGES.keysOnly);
    if (conn.overCapacity) return refuse(conn, ctx, MESSAGES.busy);
    const pk = ctx as PublicKeyAuthContext;
    if (++conn.authAttempts > maxAuthAttempts) {
      refuse(conn, ctx, MESSAGES.tooManyAttempts);
      conn.client?.end();
      return;
    }
    // Keys whose parameters make a signature check costly (an RSA exponent of thousands of bits)
    // are never considered, whoever offers them.
    if (sshKeyProblem(pk.key.data)) return ctx.reject(["publickey"]);
    const key = utils.parseKey(pk.key.data);
    if (key instanceof Error || Array.isArray(key)) return ctx.reject(["publickey"]);
    // "Would this key do?" gets the same yes for every well-formed key: whether a key is
    // registered, and the state of its owner's deployments, are only told to whoever proves
    // they hold it (the signed round below).
    if (!pk.signature) return ctx.accept();

    // Look the key up first, and verify only signatures by keys that lead somewhere: a stranger's
    // made-up keys cost a database lookup, never a signature check.
    let answer: Target | Refusal | null;
    try {
      answer = await resolve(ctx.username, { algo: pk.key.algo, data: pk.key.data });
    } catch (e) {
      log.error(`ssh: resolve failed for ${printable(ctx.username)} ${fingerprint(pk.key.data)}`, e);
      return conn.closed ? undefined : refuse(conn, ctx, MESSAGES.resolveFailed);
    }
    if (conn.closed) return;
    if (!answer) return refuse(conn, ctx, MESSAGES.noDeployment);
    signatureChecks++;
    if (!pk.blob || key.verify(pk.blob, pk.signature, pk.hashAlgo) !== true) {
      log.warn(`ssh: bad signature from ${conn.remote} for user ${printable(ctx.username)} key ${fingerprint(pk.key.data)}`);
      // The same words as for an unknown key: a forger learns nothing about the key's owner.
      return refuse(conn, ctx, MESSAGES.noDeployment);
    }
    if ("refuse" in answer) return refuse(conn, ctx, answer.refuse);
    const limitKey = answer.userId ? `user:${answer.userId}` : `deployment:${answer.deploymentId}`;
    let open = 0;
    for (const c of conns) if (c !== conn && c.outcome === "ok" && c.limitKey === limitKey) open++;
    if (open >= maxPerUser) return refuse(conn, ctx, MESSAGES.tooManyForUser(open));
    conn.target = answer;
    conn.limitKey = limitKey;
    conn.outcome = "ok";
    clearTimeout(conn.authTimer);
    ctx.accept();
  }

  // ------------------------------------------------------------------ sessions

  function onSession(conn: Conn, session: Session) {
    const s: SessionState = {
      env: {},
      ended: false,
      signals: new TokenBucket(SIGNAL_RATE.capacity, SIGNAL_RATE.perSecond),
      resizer: new Coalescer(
        ({ cols, rows }) => s.exec?.resize(cols, rows).catch((e) => log.debug(`ssh: resize: ${(e as Error).message}`)),
        new TokenBucket(RESIZE_RATE.capacity, RESIZE_RATE.perSecond),
        RESIZE_RATE.coalesceMs,
      ),
    };
    conn.sessions.add(s);
    conn.sessionCount++;
    conn.sessionsTotal++;
    const done = () => {
      s.resizer.stop();
      if (conn.sessions.delete(s)) conn.sessionCount--;
    };
    const failed = (e: unknown) => {
      log.error(`ssh: session ${conn.remote} in ${conn.target?.deploymentId}`, e);
      if (s.exec && !s.ended) kill(s.exec);
      try {
        s.channel?.close();
      } catch {
        // already closed
      }
    };

    session.on("pty", (accept, reject, info) => {
      if (s.channel) return reject?.();
      s.pty = { term: info.term || "xterm", cols: info.cols || 80, rows: info.rows || 24 };
      accept?.();
    });
    session.on("window-change", (accept, _reject, info) => {
      const cols = Math.max(1, Math.min(1000, info.cols | 0));
      const rows = Math.max(1, Math.min(1000, info.rows | 0));
      if (s.pty) s.pty = { ...s.pty, cols, rows };
      // Before the exec starts, the size is only remembered (start() passes s.pty).
      if (s.exec) s.resizer.push({ cols, rows });
      accept?.();
    });
    session.on("env", (accept, reject, info) => {
      // Bounded in count, name length and total size: each entry is held in memory and becomes
      // part of the exec's environment.
      if (!s.channel && acceptEnv(s.env, info.key, info.val)) accept?.();
      else reject?.();
    });
    session.on("signal", (accept, reject, info) => {
      const name = String(info.name).toUpperCase().replace(/^SIG/, "");
      if (!s.exec || !/^(HUP|INT|QUIT|TERM|KILL|USR1|USR2|ALRM|ABRT|CONT|STOP|TSTP|WINCH)$/.test(name)) return reject?.();
      if (!s.signals.take()) {
        log.debug(`ssh: signal ${name} from ${conn.remote} dropped: too many`);
        return reject?.();
      }
      s.exec.signal(`SIG${name}` as NodeJS.Signals).catch((e) => log.debug(`ssh: signal: ${(e as Error).message}`));
      accept?.();
    });
    session.on("shell", (accept) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "shell";
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-l"], !!s.pty).catch(failed).finally(done);
    });
    session.on("exec", (accept, _reject, info) => {
      const channel = accept();
      if (!channel) return;
      const t = conn.target!;
      s.kind = "exec";
      // As sshd does: the user's shell runs the command line.
      start(conn, s, channel, [t.shell ?? "/bin/bash", "-c", info.command], !!s.pty).catch(failed).finally(done);
    });
    session.on("subsystem", (accept, reject, info) => {
      if (info.name !== "sftp") return reject?.();
      const channel = accept();
      if (!channel) return;
      s.kind = "sftp";
      start(conn, s, channel, [sftpServer], false, { quiet: true }).catch(failed).finally(done);
    });
    session.on("x11", (_accept, reject) => reject?.());
    session.on("auth-agent", (_accept, reject) => reject?.());
    session.on("close", done);
  }

  async function start(conn: Conn, s: SessionState, channel: ServerChannel, command: string[], tty: boolean, opts: { quiet?: boolean } = {}) {
    const t = conn.target!;
    s.channel = channel;
    channel.on("error", (e: Error) => log.debug(`ssh: channel ${conn.remote}: ${e.message}`));
    let channelClosed = false;
    channel.once("close", () => {
      channelClosed = true;
      if (s.exec && !s.ended) kill(s.exec);
    });
    const home = t.home ?? (t.shellUser === "root" ? "/root" : `/home/${t.shellUser}`);
    const env: Record<string, string> = {
      ...s.env,
      HOME: home,
      USER: t.shellUser,
      LOGNAME: t.shellUser,
      SHELL: t.shell ?? "/bin/bash",
    };
    if (tty) env.TERM = s.pty!.term;
    const execOptions: ExecOptions = { command, tty, stdin: true, env, user: t.shellUser, workdir: home };
    if (tty) {
      execOptions.cols = s.pty!.cols;
      execOptions.rows = s.pty!.rows;
    }
    const launch = async (workdir: string) => {
      try {
        return await runtime.exec(t.containerId, { ...execOptions, workdir });
      } catch (e) {
        log.warn(`ssh: exec in ${t.deploymentId} (${t.containerId.slice(0, 12)}) failed: ${(e as Error).message}`);
        if (!channelClosed) {
          if (!opts.quiet) channel.stderr.write(`faultline: could not start a shell in your deployment: it may have ended.\r\n`);
          channel.exit(255);
          channel.end();
        }
        return null;
      }
    };
    let exec = await launch(home);
    if (!exec) return;
    s.exec = exec;
    if (channelClosed || conn.closed) {
      kill(exec);
      return;
    }
    if (tty && s.pty && (s.pty.cols !== execOptions.cols || s.pty.rows !== execOptions.rows)) {
      // The window changed while the exec was starting.
      exec.resize(s.pty.cols, s.pty.rows).catch(() => {});
    }

    // The engine only reports a missing working directory on the process's output (exit 126).
    // Until the first output arrives, what the client sends is kept (bounded) so that, in that
    // case, the same request can run again from / with nothing lost, as sshd does ("Could not
    // chdir to home directory").
    let kept: Buffer[] | null = [];
    let keptBytes = 0;
    const keep = (chunk: Buffer) => {
      if (!kept) return;
      keptBytes += chunk.length;
      if (keptBytes > 256 * 1024) kept = null;
      else kept.push(chunk);
    };
    channel.on("data", keep);
    const attach = (e: ExecSession) => {
      e.stdout.on("error", () => {});
      e.stderr.on("error", () => {});
      e.stderr.pipe(channel.stderr, { end: false });
      if (e.stdin) {
        e.stdin.on("error", () => {});
        // The client's end of file ends the process's stdin, without a TTY. With one, sshd keeps
        // the terminal open (a ^D is the terminal's end of file), and ending a TTY exec's input
        // makes the engine drop the rest of its output.
        channel.pipe(e.stdin, { end: !tty });
      }
    };
    attach(exec);
    const first = await firstChunk(exec.stdout);
    if (first && kept && /^OCI runtime exec failed: .*chdir to cwd/.test(first.subarray(0, 300).toString("latin1"))) {
      const old = exec;
      old.stderr.unpipe(channel.stderr);
      if (old.stdin) channel.unpipe(old.stdin);
      old.stdout.destroy();
      old.stderr.destroy();
      old.stdin?.destroy();
      const replay = kept;
      channel.stderr.write(`Could not chdir to home directory ${home}: No such file or directory\r\n`);
      exec = await launch("/");
      if (!exec) return;
      s.exec = exec;
      if (channelClosed || conn.closed) {
        kill(exec);
        return;
      }
      for (const chunk of replay) exec.stdin?.write(chunk);
      attach(exec);
      if (channel.readableEnded && !tty) exec.stdin?.end();
    } else if (first) {
      channel.write(first);
    }
    channel.off("data", keep);
    kept = null;
    if (conn.disconnecting) return;
    exec.stdout.pipe(channel, { end: false });
    const outputDone = Promise.all([ended(exec.stdout), ended(exec.stderr)]);

    let code: number;
    try {
      code = await exec.wait();
    } catch (e) {
      log.debug(`ssh: wait: ${(e as Error).message}`);
      code = 255;
    }
    s.ended = true;
    // Everything the process wrote reaches the client, however slowly it reads; but a daemon the
    // user started can hold the output open for ever: once nothing is in flight and nothing new
    // came for a moment, stop waiting.
    let outputEnded = false;
    outputDone.then(() => (outputEnded = true));
    let lastOutput = Date.now();
    const bump = () => (lastOutput = Date.now());
    exec.stdout.on("data", bump);
    exec.stderr.on("data", bump);
    const idleMs = tty ? 150 : 300;
    while (!outputEnded && !channelClosed && !conn.disconnecting) {
      const inFlight = exec.stdout.readableLength + exec.stderr.readableLength + channel.writableLength + channel.stderr.writableLength;
      if (inFlight === 0 && Date.now() - lastOutput >= idleMs) break;
      await Promise.race([outputDone, sleep(25)]);
    }
    exec.stdout.unpipe(channel);
    exec.stderr.unpipe(channel.stderr);
    if (exec.stdin) channel.unpipe(exec.stdin);
    exec.stdout.destroy();
    exec.stderr.destroy();
    exec.stdin?.destroy();
    if (!channelClosed && !conn.disconnecting) {
      // Exit status first, then end of file and close (machine.md: otherwise OpenSSH reports 255).
      channel.exit(code);
      channel.end();
    }
  }

  function kill(exec: ExecSession) {
    // Like a hung-up terminal: SIGHUP lets shells and editors exit cleanly, then whatever is
    // left of the connection's process session is killed.
    exec.signal("SIGHUP").catch(() => {});
    const t = setTimeout(() => exec.signal("SIGKILL").catch((e) => log.debug(`ssh: kill: ${(e as Error).message}`)), killGraceMs);
    t.unref();
  }

  // ------------------------------------------------------------------ ending

  function finish(conn: Conn) {
    if (conn.closed) return;
    conn.closed = true;
    clearTimeout(conn.authTimer);
    conns.delete(conn);
    for (const s of conn.sessions) if (s.exec && !s.ended) kill(s.exec);
    const seconds = ((Date.now() - conn.startedAt) / 1000).toFixed(1);
    const t = conn.target;
    log.info(
      `ssh: connection user=${conn.sshUser === undefined ? "-" : printable(conn.sshUser)} deployment=${t?.deploymentId ?? "-"}${t?.hostname ? ` host=${t.hostname}` : ""} remote=${conn.remote} duration=${seconds}s auth=${conn.outcome} sessions=${conn.sessionsTotal}`,
    );
    try {
      conn.client?.end();
    } catch {
      // already gone
    }
    conn.socket.destroy();
  }

  function disconnect(conn: Conn, message: string) {
    if (conn.disconnecting) return;
    conn.disconnecting = true;
    let open = 0;
    for (const s of conn.sessions) {
      if (s.exec && !s.ended) kill(s.exec);
      const channel = s.channel;
      if (!channel) continue;
      s.exec?.stdout.unpipe(channel);
      s.exec?.stderr.unpipe(channel.stderr);
      try {
        if (s.kind !== "sftp") {
          if (s.pty) channel.write(`\r\n${message}\r\n`);
          else channel.stderr.write(`${message}\n`);
        }
        // Closing the channels first lets OpenSSH print the message (it drops what it has not
        // written yet when the connection itself is cut) and exit by itself.
        channel.end();
        open++;
      } catch {
        // channel already closing
      }
    }
    const end = () => {
      try {
        conn.client?.end();
      } catch {
        // already gone
      }
    };
    if (open) setTimeout(end, 1000).unref();
    else end();
    // A client that does not answer still goes.
    setTimeout(() => conn.socket.destroy(), 3000).unref();
  }

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
    closeDeployment(deploymentId: string) {
      for (const conn of conns) if (conn.target?.deploymentId === deploymentId) disconnect(conn, MESSAGES.ended);
    },
    async close() {
      closing = true;
      const closed = new Promise<void>((r) => tcp.close(() => r()));
      for (const conn of conns) disconnect(conn, MESSAGES.gatewayClosing);
      // Give the disconnect messages a moment, then cut what is left.
      await Promise.race([closed, sleep(2500)]);
      for (const conn of conns) conn.socket.destroy();
      await Promise.race([closed, sleep(500)]);
    },
    stats() {
      const byDeployment: Record<string, number> = {};
      for (const c of conns) if (c.target) byDeployment[c.target.deploymentId] = (byDeployment[c.target.deploymentId] ?? 0) + 1;
      return { connections: conns.size, byDeployment, signatureChecks };
    },
  };
}

/** The first chunk a stream gives (then it is paused), or null when it ends without one. */
function firstChunk(stream: Readable): Promise<Buffer | null> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve(null);
  return new Promise((r) => {
    const done = (chunk: Buffer | null) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("close", onEnd);
      stream.off("error", onEnd);
      r(chunk);
    };
    const onData = (chunk: Buffer) => {
      stream.pause();
      done(chunk);
    };
    const onEnd = () => done(null);
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("close", onEnd);
    stream.once("error", onEnd);
  });
}

function ended(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((r) => {
    stream.once("end", () => r());
    stream.once("close", () => r());
    stream.once("error", () => r());
  });
}

/** A client-chosen string made safe for a log line: no control characters, bounded. */
function printable(value: string) {
  const quoted = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  return /^"[\w.@+-]+"$/.test(quoted) ? quoted.slice(1, -1) : quoted;
}

function sleep(ms: number) {
  return new Promise<void>((r) => setTimeout(r, ms).unref());
}
