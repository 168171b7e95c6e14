// Reading deployments: the user's current one, theirs for a challenge, one by id, and what the
// grader needs of a ready one (its row with the scenario's values, and its environment).
import { LABEL } from "#server/runtime/policy.ts";
import type { Environment, ScenarioValues } from "#server/runtime/scenario.ts";
import { conflict, notFound, unavailable } from "#server/core/errors.ts";
import { RUNTIME_UNAVAILABLE } from "./admission.ts";
import type { DeploymentContext } from "./context.ts";
import { ACTIVE, type DeploymentRow, isActive, iso } from "./model.ts";

export function createReads(ctx: DeploymentContext) {
  const { db, runtime, challenges } = ctx.deps;
  const { byId, view, challengeOf, owner, activeFor } = ctx;

  /** The user's most recent active deployment (GET /challenges/active-session: the API's words). */
  async function activeDeployment(userId: string) {
    const row = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("status", "in", ACTIVE)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (!row) return { has_active_session: false, active_session: null };
    return {
      has_active_session: true,
      active_session: {
        deployment_id: row.id,
        challenge_id: row.challenge_id,
        challenge_title: challenges.get(row.challenge_id)?.title ?? row.challenge_id,
        status: row.status,
        expires_at: iso(row.expires_at),
      },
    };
  }

  /** The user's deployment of a challenge: the active one, else the last one if it failed. */
  async function forChallenge(userId: string, challengeId: string) {
    challengeOf(challengeId);
    const row = await db
      .selectFrom("deployments")
      .selectAll()
      .where("user_id", "=", userId)
      .where("challenge_id", "=", challengeId)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (!row || !(isActive(row.status) || row.status === "failed")) {
      return {
        deployment_id: null,
        challenge_id: challengeId,
        status: "idle" as const,
        expires_at: null,
        ssh_details: null,
        websocket_url: null,
        error_message: null,
      };
    }
    return view(row);
  }

  /** A deployment by id for its owner (userId) or for a trusted service (userId null). */
  async function get(id: string, userId: string | null) {
    const row = await byId(id);
    if (!row || (userId !== null && row.user_id !== userId)) throw notFound("Deployment not found");
    return view(row);
  }

  /** The row a grader needs (values included), only while ready. */
  async function readyFor(userId: string, challengeId: string, deploymentId?: string) {
    const row = await activeFor(userId, challengeId);
    if (!row || (deploymentId && deploymentId !== row.id)) return null;
    return row;
  }

  /** The environment of a ready deployment, for the grader. */
  async function environment(row: DeploymentRow): Promise<{ env: Environment; values: ScenarioValues }> {
    if (!runtime) throw unavailable(RUNTIME_UNAVAILABLE);
    const target = row.container_id ? await runtime.inspect(row.container_id) : null;
    // The network its target is on: a check's booted copy has a network of its own, with the
    // same labels, for the seconds its removal takes after the check (the first one listed was
    // that one now and then, and the next check's grader joined it: "did not answer in time" on
    // an honest fix, or "network not found" once it was gone).
    const network = target && (await runtime.listNetworks({ [LABEL.deployment]: row.id })).find((n) => n.name === target.network);
    if (!target || target.state !== "running" || !network) {
      throw conflict("The environment of this deployment is gone. Start the challenge again.");
    }
    return { env: { owner: owner(row), network, target }, values: JSON.parse(row.scenario_values ?? "{}") as ScenarioValues };
  }

  return { activeDeployment, forChallenge, get, readyFor, environment };
}
