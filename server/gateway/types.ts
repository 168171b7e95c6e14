// The SSH gateway's contract with the rest of the platform. The gateway holds no user data
// (ContainerSSH's lesson): for every key a client offers it asks `resolve` where that key may go,
// and it only ever enters the container the answer names.
import type { Runtime } from "../runtime/types.ts";

/** A public key offered by an SSH client: its algorithm name and its SSH wire-format blob
 *  (`key.data.toString("base64")` is the middle field of an authorized_keys / .pub line). */
export interface OfferedKey {
  algo: string;
  data: Buffer;
}

/** Where an authenticated connection goes. */
export interface Target {
  deploymentId: string;
  /** The container the user's shells and commands run in (the deployment's "target" container). */
  containerId: string;
  /** The user inside the container; usually "root" (or the user a challenge declares). */
  shellUser: string;
  /** The container's hostname, for logs only (the engine sets the real one). */
  hostname?: string;
  /** The platform user who owns the deployment: connections are limited per owner
   *  (default: per deployment). */
  userId?: string;
  /** Login shell inside the container (default /bin/bash). */
  shell?: string;
  /** Home directory of `shellUser` (default /root for root, else /home/<shellUser>). */
  home?: string;
}

/** A refusal with the reason shown to the person at the client (one short line, plain text). */
export interface Refusal {
  refuse: string;
}

/**
 * Maps (ssh user name, offered public key) to the deployment that key may enter, or refuses.
 *
 * - Return a Target only when `key.data` is byte-for-byte a key registered by the owner of a
 *   deployment that is `ready`, and, when that owner has several ready deployments, `sshUser`
 *   names which one (whatever naming the deployments service hands out as ssh_user).
 * - Return null for an unknown key or no ready deployment (the client is told so in generic
 *   words), or `{ refuse: "..." }` to tell the person something specific (for example
 *   "Your deployment is still being set up: try again in a few seconds.").
 * - It is called once per signed attempt, BEFORE the gateway verifies the signature (a key that
 *   leads nowhere is never verified: checking a stranger's signature costs CPU). So whatever it
 *   answers must not be shown or acted on before the signature is good: the gateway only tells a
 *   Refusal's words, or enters a Target, after verifying. Unsigned "would this key do?" queries
 *   never reach it (they get the same yes for every well-formed key). It must be cheap and free of
 *   side effects. A thrown error refuses the key and is logged.
 */
export type Resolve = (sshUser: string, key: OfferedKey) => Promise<Target | Refusal | null>;

export interface GatewayLogger {
  debug(message: string, extra?: unknown): void;
  info(message: string, extra?: unknown): void;
  warn(message: string, extra?: unknown): void;
  error(message: string, extra?: unknown): void;
}

export interface GatewayOptions {
  /** TCP port; 0 picks a free one (listen() answers which). */
  port: number;
  /** Address to listen on (default 0.0.0.0). */
  host?: string;
  /** Where the ed25519 host key lives (created once, mode 0600, when absent). */
  hostKeyPath: string;
  runtime: Runtime;
  resolve: Resolve;
  log?: GatewayLogger;
  /** Connections that have not authenticated within this time are dropped (default 10 s). */
  authTimeoutMs?: number;
  /** Keep-alive probes to authenticated clients: interval and how many may go unanswered
   *  (default 15 s and 4: a vanished client is dropped after about a minute). */
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  /** Open connections at most, authenticated or not (default 256). */
  maxConnections?: number;
  /** Open connections from one address (an IPv4 address, or an IPv6 /64) (default 32). */
  maxConnectionsPerAddress?: number;
  /** Of those, not yet authenticated (default 8): beyond it the socket is closed at once. */
  maxUnauthenticatedPerAddress?: number;
  /** Authenticated connections per owner (Target.userId, else per deployment) (default 8). */
  maxConnectionsPerUser?: number;
  /** Channels (shells, commands, file transfers) per connection at once (default 4). */
  maxSessionsPerConnection?: number;
  /** Public-key attempts per connection before it is dropped (default 10). */
  maxAuthAttempts?: number;
  /** The sftp server binary inside containers (default /usr/lib/openssh/sftp-server). */
  sftpServerPath?: string;
  /** After a disconnect, processes get SIGHUP, then SIGKILL this much later (default 1000 ms). */
  killGraceMs?: number;
}

export interface Gateway {
  /** Starts listening; resolves with the port. */
  listen(): Promise<number>;
  /** Ends every connection into the deployment (and the processes they started). */
  closeDeployment(deploymentId: string): void;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
  /** The host key's fingerprint as OpenSSH prints it ("SHA256:..."). */
  readonly hostKeyFingerprint: string;
  /** The host key's public line ("ssh-ed25519 AAAA..."), e.g. for a known_hosts line. */
  readonly hostPublicKey: string;
  /** Open connections (authenticated or not), per deployment authenticated ones, and how many
   *  client signatures were verified since the start (only keys `resolve` maps somewhere are). */
  stats(): { connections: number; byDeployment: Record<string, number>; signatureChecks: number };
}
