// What the parts of the deployments service share: their dependencies, the live messages
// (events), the background jobs in flight, and the few steps every part takes on a row (read it,
// show it, move it from one status to the next and tell the live channel, on every replica).
import { EventEmitter } from "node:events";
import { nowSeconds } from "#server/db/index.ts";
import type { DeploymentStatus } from "#server/db/schema.ts";
import type { Challenge } from "#server/library/challenges.ts";
import type { Owner } from "#server/runtime/types.ts";
import { notFound } from "#server/core/errors.ts";
import type { DeploymentsDeps, Replica } from "./deps.ts";
import { createPool } from "./pool.ts";
import { ACTIVE, type DeploymentRow, type DeploymentView, iso, type LiveMessage, type SshDetails, type SshEndpoint } from "./model.ts";

/** The events the other replicas must hear too: a browser's live channel or an SSH session may
 *  be served by another replica than the one deploying or ending the deployment. */
const SHARED_EVENT = /^(message:[0-9a-f-]{36}|ended|reset)$/;

/** An emitter that also passes SHARED_EVENTs to the other replicas, and emits theirs here. */
function sharedEvents(replica: Replica | undefined): EventEmitter {
  const events = new EventEmitter();
  if (!replica) return events;
  const here = events.emit.bind(events);
  events.emit = (name: string | symbol, ...args: unknown[]) => {
    if (typeof name === "string" && SHARED_EVENT.test(name)) replica.publish("deployments", { name, args });
    return here(name, ...args);
  };
  replica.on("deployments", (data) => {
    const { name, args } = (data ?? {}) as { name?: unknown; args?: unknown };
    if (typeof name === "string" && SHARED_EVENT.test(name) && Array.isArray(args)) here(name, ...args);
  });
  return events;
}

export function createContext(deps: DeploymentsDeps) {
  const { db, challenges, instance } = deps;
  let ssh: SshEndpoint = deps.ssh;
  /** Per-deployment live messages ("message:<id>") and endings ("ended", id) for the gateway. */
  const events = sharedEvents(deps.replica);
  events.setMaxListeners(0);
  /** Background deploy jobs in flight, so shutdown and tests can wait for them. */
  const jobs = new Map<string, Promise<void>>();
  /** Deployments made ahead of any start, claimed by starts (pool.ts). */
  const pool = createPool(deps, jobs);

  const byId = (id: string) => db.selectFrom("deployments").selectAll().where("id", "=", id).executeTakeFirst();

  function sshDetails(row: DeploymentRow): SshDetails | null {
    if (row.status !== "ready") return null;
    const details: SshDetails = { ssh_host: ssh.host, ssh_port: ssh.port, ssh_user: row.ssh_user };
    if (ssh.hostKeyFingerprint) details.host_key_fingerprint = ssh.hostKeyFingerprint;
    return details;
  }

  function view(row: DeploymentRow): DeploymentView {
    return {
      deployment_id: row.id,
      challenge_id: row.challenge_id,
      status: row.status,
      expires_at: iso(row.expires_at),
      created_at: iso(row.created_at),
      ready_at: row.ready_at ? iso(row.ready_at) : null,
      ssh_details: sshDetails(row),
      websocket_url: `/ws/deployments/${row.id}`,
      error_message: row.error_message,
    };
  }

  function publish(message: LiveMessage) {
    events.emit(`message:${message.deployment_id}`, message);
  }

  function publishState(row: DeploymentRow) {
    const v = view(row);
    publish({
      type: "deployment_update",
      deployment_id: v.deployment_id,
      status: v.status,
      expires_at: v.expires_at,
      ssh_details: v.ssh_details,
      error_message: v.error_message,
    });
  }

  function progress(row: DeploymentRow, status: DeploymentStatus, percent: number, message: string) {
    publish({ type: "progress_update", deployment_id: row.id, status, progress: percent, message });
    publish({ type: "deployment_logs", deployment_id: row.id, line: message });
  }

  function challengeOf(id: string): Challenge {
    const c = challenges.get(id);
    if (!c) throw notFound("Challenge not found");
    return c;
  }

  function owner(row: DeploymentRow): Owner {
    return { deploymentId: row.id, userId: row.user_id, challengeId: row.challenge_id, instance };
  }

  /** Moves an active deployment to `status` only if it is still in one of `from`; the row after. */
  async function transition(id: string, from: DeploymentStatus[], values: Partial<DeploymentRow>): Promise<DeploymentRow | null> {
    const res = await db
      .updateTable("deployments")
      .set({ ...values, updated_at: nowSeconds() })
      .where("id", "=", id)
      .where("status", "in", from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    const row = (await byId(id))!;
    publishState(row);
    return row;
  }

  /** The user's active deployment of a challenge, if any. */
  async function activeFor(userId: string, challengeId: string) {
    return db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("challenge_id", "=", challengeId)
      .where("status", "in", ACTIVE)
      .executeTakeFirst();
  }

  return {
    deps,
    events,
    jobs,
    pool,
    byId,
    view,
    publish,
    progress,
    challengeOf,
    owner,
    transition,
    activeFor,
    /** Where users are told to connect. */
    ssh: () => ssh,
    setSsh(endpoint: SshEndpoint) {
      ssh = endpoint;
    },
  };
}
export type DeploymentContext = ReturnType<typeof createContext>;
