// What the parts of the deployments service are given, as types only: the service's
// dependencies (wired in server/platform.ts) and the shape of an admission step (admission.ts).
// Its own module so that the parts (context, pool, admission) depend on it, not on each other.
import type { Db } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { Challenge } from "#server/library/challenges.ts";
import type { Runtime } from "#server/runtime/types.ts";
import type { Audit } from "#server/core/audit.ts";
import type { RateLimiter } from "#server/core/ratelimit.ts";
import type { DeploymentRow, SshEndpoint } from "./model.ts";

/** Who asks to start which challenge. */
export interface Applicant {
  userId: string;
  challenge: Challenge;
  user: { is_verified: number; ssh_public_key: string | null };
}

/** The applicant, with their active deployments as counted under the locks. */
export interface CapacityRequest extends Applicant {
  active: Pick<DeploymentRow, "id" | "challenge_id">[];
}

export type AdmissionStep<R> = (request: R) => void | Promise<void>;

export interface AdmissionSteps {
  applicant: AdmissionStep<Applicant>[];
  capacity: AdmissionStep<CapacityRequest>[];
}

export interface DeploymentsDeps {
  db: Db;
  /** null when no engine is configured: starting answers "unavailable". */
  runtime: Runtime | null;
  challenges: ReadonlyMap<string, Challenge>;
  log: Logger;
  limiter: RateLimiter;
  /** This installation's id: labels every container so reconciliation removes only its own. */
  instance: string;
  ssh: SshEndpoint;
  durationSeconds: number;
  /** The duration when it can change while the platform runs (the admin console's session
   *  timeout, server/core/admin/settings.ts): read at each start and extension. */
  currentDurationSeconds?: () => number;
  maxLifetimeSeconds: number;
  maxConcurrentPerUser: number;
  /** Bytes of memory all active deployments may take together (admission control, capacity.ts);
   *  undefined: no limit. */
  capacityBytes?: number;
  /** The audit log (server/core/audit.ts): starts, terminations and expiries are written there. */
  audit?: Pick<Audit, "record">;
  /** Further checks a start must pass (plans, maintenance mode...), run after the built-in ones
   *  of the same list (admission.ts). */
  admission?: Partial<AdmissionSteps>;
  /** This process among the replicas sharing the database (server/db/cluster.ts): its id marks
   *  the deployments it deploys, and `alive` tells reconciliation whose deployer died. */
  replica?: Replica;
  /** The warm pool (pool.ts): each challenge's size unless its challenge.yaml says, and how long
   *  a pooled deployment may wait unclaimed; absent: no pool. */
  pool?: { size: number; idleSeconds: number };
  /** What holds the pool back now (the admin console's rules, server/core/admin): maintenance
   *  mode stops it, and hidden challenges get none. */
  poolHold?: () => Promise<PoolHold>;
}

export interface PoolHold {
  maintenance: boolean;
  hidden: ReadonlySet<string>;
}

/** What the deployments service needs of the other replicas (server/db/cluster.ts). */
export interface Replica {
  id: string;
  alive(ids: readonly string[]): Promise<Set<string>>;
  /** Tells the other replicas; `on` hears what they tell. */
  publish(topic: string, data: unknown): void;
  on(topic: string, listener: (data: unknown) => void): () => void;
}
