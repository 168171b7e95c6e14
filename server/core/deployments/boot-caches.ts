// The runtime's boot caches (what the first deployment of an image computes: its writable
// directories' content), filled by the worker at boot so the first start of an image after a
// restart costs no more than the next. After a release every image is new, so the fill takes
// about a second per image; a player starting meanwhile must not queue behind it:
// - the images players solve most are filled first (challenge_solves, one row per challenge);
// - before each image the fill waits until no deployment is being made (starts, resets, the
//   warm pool), so a start shares the engine with at most the one image in progress, and a start
//   whose image is not filled yet computes its own caches at once (the runtime shares the work
//   when the fill reaches the same image).
import type { Challenge } from "#server/library/challenges.ts";
import type { DeploymentsDeps } from "./deps.ts";

/** Challenges in the order their images' caches are filled: most solved first, then as listed. */
export async function fillOrder(deps: Pick<DeploymentsDeps, "db" | "challenges">): Promise<Challenge[]> {
  const rows = await deps.db.selectFrom("challenge_solves").select(["challenge_id", "solves"]).execute();
  const solves = new Map(rows.map((r) => [r.challenge_id, Number(r.solves)]));
  return [...deps.challenges.values()]
    .map((c, i) => ({ c, i, n: solves.get(c.id) ?? 0 }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.c);
}

export function createBootCaches(deps: DeploymentsDeps, jobs: ReadonlyMap<string, Promise<void>>) {
  /** Resolves once no deployment is being made by this process. */
  async function engineFree() {
    while (jobs.size) await Promise.allSettled([...jobs.values()]);
  }

  /** Fills every challenge image's caches, one image at a time, yielding to deployments. */
  return async function prepareRuntime() {
    const runtime = deps.runtime;
    if (!runtime?.prepare) return;
    for (const challenge of await fillOrder(deps)) {
      await engineFree();
      await runtime.prepare([{ image: challenge.image, writable: challenge.writable }]);
    }
  };
}
