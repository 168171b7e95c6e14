// Admission: every check a deployment start must pass, in order, as two named lists of steps.
// A step refuses by throwing a domain error (../errors.ts); returning lets the start go on.
// - `applicant`: checks on who asks, before any lock (verified e-mail, an SSH key, the start rate).
// - `capacity`: checks on room, under the user's lock and the platform-wide one, so what they
//   count cannot change before the new row is written (one deployment per challenge, the
//   per-user cap, the host's memory, an engine to run it).
// A new rule for starting (a plan's limits, maintenance mode) is one more step: in these lists
// when it needs only what a step is given, or through DeploymentsDeps.admission (context.ts)
// when it needs a service of its own; those run after the built-in applicant steps, and in the
// capacity list right after "one deployment per challenge", before the platform's own limits.
import { nowSeconds } from "#server/db/index.ts";
import { VERIFY_TO_START } from "#shared/rules.ts";
import { deploymentCost, fullMessage } from "#server/core/capacity.ts";
import { badRequest, conflict, forbidden, limitReached, unavailable } from "#server/core/errors.ts";
import type { DeploymentContext } from "./context.ts";
import type { AdmissionStep, AdmissionSteps, Applicant, CapacityRequest } from "./deps.ts";
import { ACTIVE } from "./model.ts";

// Each start builds a network and a container: a hostile user looping start/terminate would keep
// the engine busy for everyone. Far more than a person starts while practising.
const STARTS_PER_USER = { max: 20, windowSeconds: 10 * 60 };
export const ALREADY_RUNNING = "You already have an active deployment for this challenge.";
export const RUNTIME_UNAVAILABLE = "The challenge runtime is not available right now. Please try again later.";

export function createAdmission(ctx: DeploymentContext) {
  const { db, challenges, limiter, log, runtime } = ctx.deps;
  const { maxConcurrentPerUser, capacityBytes } = ctx.deps;

  const mustBeVerified: AdmissionStep<Applicant> = ({ user }) => {
    if (user.is_verified !== 1) throw forbidden(VERIFY_TO_START);
  };
  const mustHaveSshKey: AdmissionStep<Applicant> = ({ user }) => {
    if (!user.ssh_public_key) {
      throw badRequest("An SSH key is required to access challenge environments. Add your public key in Settings → Security first.");
    }
  };
  const withinStartRate: AdmissionStep<Applicant> = ({ userId }) => limiter.consume(`start:${userId}`, STARTS_PER_USER);

  const notAlreadyRunning: AdmissionStep<CapacityRequest> = ({ active, challenge }) => {
    if (active.some((d) => d.challenge_id === challenge.id)) throw conflict(ALREADY_RUNNING);
  };
  const withinUserCap: AdmissionStep<CapacityRequest> = ({ active }) => {
    if (active.length < maxConcurrentPerUser) return;
    const titles = active.map((d) => challenges.get(d.challenge_id)?.title ?? d.challenge_id).join(", ");
    throw limitReached(
      `You can run ${maxConcurrentPerUser} deployment${maxConcurrentPerUser === 1 ? "" : "s"} at a time. Terminate your deployment of "${titles}" first.`,
    );
  };
  /** Refuses when the memory limits of the active deployments and this one, each with its
   *  overhead, would exceed the capacity (capacity.ts). */
  const withinHostCapacity: AdmissionStep<CapacityRequest> = async ({ challenge }) => {
    if (capacityBytes === undefined) return;
    const all = await db.selectFrom("deployments").select(["challenge_id", "expires_at"]).where("status", "in", ACTIVE).execute();
    // Pooled deployments hold their room too (pool.ts); claiming one takes no new room.
    const taken = all.reduce((sum, d) => sum + deploymentCost(challenges.get(d.challenge_id)), 0) + (await ctx.pool.heldBytes());
    const needed = (await ctx.pool.claimable(challenge.id)) ? 0 : deploymentCost(challenge);
    if (taken + needed <= capacityBytes) return;
    // A person's start goes before pooled deployments of other challenges nobody asked for yet.
    if ((await ctx.pool.evict(taken + needed - capacityBytes, challenge.id)) >= taken + needed - capacityBytes) return;
    log.warn(`start refused: capacity full (${all.length} active deployments, ${Math.round(taken / 2 ** 20)} of ${Math.round(capacityBytes / 2 ** 20)} MiB)`);
    throw unavailable(
      fullMessage(
        all.map((d) => d.expires_at),
        nowSeconds(),
      ),
    );
  };
  const runtimeAvailable: AdmissionStep<CapacityRequest> = () => {
    if (!runtime) throw unavailable(RUNTIME_UNAVAILABLE);
  };

  const admission: AdmissionSteps = {
    applicant: [mustBeVerified, mustHaveSshKey, withinStartRate, ...(ctx.deps.admission?.applicant ?? [])],
    // The deps' room checks (a plan's caps) come before the platform's: what the user's plan
    // allows is the more useful answer than "come back later" or the platform's own ceiling.
    capacity: [notAlreadyRunning, ...(ctx.deps.admission?.capacity ?? []), withinUserCap, withinHostCapacity, runtimeAvailable],
  };

  async function run<R>(steps: AdmissionStep<R>[], request: R) {
    for (const step of steps) await step(request);
  }

  return {
    admission,
    /** Runs the applicant's checks (before any lock). */
    admitApplicant: (a: Applicant) => run(admission.applicant, a),
    /** Runs the capacity checks (the caller holds the locks). */
    admitCapacity: (r: CapacityRequest) => run(admission.capacity, r),
  };
}
