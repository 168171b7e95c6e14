// Who gets in, counted over the open connections (docs/decisions/004-ssh-gateway.md,
// "Disconnects and limits"): a hard cap on sockets, per-address caps before any key exchange,
// a "busy" refusal above the connection cap, and a cap per owner once authenticated.
import type { Conn } from "./connection.ts";
import type { Target } from "./types.ts";

export interface AdmissionLimits {
  maxConnections: number;
  maxPerAddress: number;
  maxUnauthenticatedPerAddress: number;
  maxPerUser: number;
}

/** Sockets beyond the connection cap plus this many are closed at once: above the cap itself a
 *  client still gets the "busy" refusal, which needs a connection. */
const HARD_CAP_MARGIN = 32;

export function hardCapReached(conns: Set<Conn>, limits: AdmissionLimits) {
  return conns.size >= limits.maxConnections + HARD_CAP_MARGIN;
}

/** One address cannot take the whole gateway: it may hold a few connections that have not
 *  authenticated yet (each is held for at most the authentication timeout) and a bounded number
 *  in all. Why a new socket from `address` is refused (for the debug log), or null. */
export function addressRefusal(conns: Set<Conn>, address: string, limits: AdmissionLimits): string | null {
  let fromAddress = 0;
  let unauthenticated = 0;
  for (const c of conns) {
    if (c.address !== address) continue;
    fromAddress++;
    if (c.outcome !== "ok") unauthenticated++;
  }
  if (fromAddress >= limits.maxPerAddress || unauthenticated >= limits.maxUnauthenticatedPerAddress) {
    return `${fromAddress} connections from it, ${unauthenticated} not authenticated`;
  }
  return null;
}

/** Above the connection cap a new connection is kept only to be told "busy". */
export function overCapacity(conns: Set<Conn>, limits: AdmissionLimits) {
  return conns.size >= limits.maxConnections;
}

/** Who the per-owner cap counts a connection under: the platform user, else the deployment. */
export function ownerLimitKey(target: Target) {
  return target.userId ? `user:${target.userId}` : `deployment:${target.deploymentId}`;
}

/** Authenticated connections other than `conn` already counted under `limitKey`. */
export function openForOwner(conns: Set<Conn>, conn: Conn, limitKey: string) {
  let open = 0;
  for (const c of conns) if (c !== conn && c.outcome === "ok" && c.limitKey === limitKey) open++;
  return open;
}
