// The SSH gateway's contract with the rest of the platform. The gateway holds no user data
// (ContainerSSH's lesson): for every key a client offers it asks `resolve` where that key may go,
// and it only ever enters the container the answer names (the contract of `resolve` is written
// in server/core/deployments/ssh-access.ts).
import type { ShellRecorder } from "#server/core/recordings/recorder.ts";
import type { Runtime } from "#server/runtime/types.ts";

// The key, the target and the answer are the deployments service's own words (core depends on
// no transport): re-exported so the gateway and its tests keep one import.
export type { OfferedKey, Refusal, Resolve, Target } from "#server/core/deployments/ssh-access.ts";
import type { Resolve } from "#server/core/deployments/ssh-access.ts";

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
  /** Records every shell and command (not sftp) of a target with a userId and challengeId as an
   *  asciicast (server/core/recordings/recorder.ts); none when absent. */
  recorder?: ShellRecorder;
}

export interface Gateway {
  /** Starts listening; resolves with the port. */
  listen(): Promise<number>;
  /** Ends every connection into the deployment (and the processes they started), telling each
   *  why (default: the deployment has ended). */
  closeDeployment(deploymentId: string, message?: string): void;
  /** Ends every connection of the platform user (Target.userId): their password or SSH key
   *  changed, and what the old ones let in must not stay (default: says so). */
  closeOwner(userId: string, message?: string): void;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
  /** The host key's fingerprint as OpenSSH prints it ("SHA256:..."). */
  readonly hostKeyFingerprint: string;
  /** The host key's public line ("ssh-ed25519 AAAA..."), e.g. for a known_hosts line. */
  readonly hostPublicKey: string;
  /** Open connections (authenticated or not), per deployment authenticated ones, and how many
   *  client signatures were verified since the start (every signed attempt is). */
  stats(): { connections: number; byDeployment: Record<string, number>; signatureChecks: number };
}
