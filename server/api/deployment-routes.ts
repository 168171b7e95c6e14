// Deployments and grading over HTTP (docs/api.md, "Deployments (challenge sessions) and
// grading", and the fallback polling endpoint). Registered before the catalogue's
// /challenges/:id routes, since the router matches in order and "active-session" and "config"
// are not challenge ids.
import type { Deployments } from "#server/core/deployments/index.ts";
import { unauthorized, unavailable } from "#server/core/errors.ts";
import type { Grading } from "#server/core/grading.ts";
import { safeEqual } from "#server/core/secrets.ts";
import { operations } from "#shared/contract/operations.ts";
import type { BaseCtx, Router } from "./router.ts";

export interface DeploymentRoutesDeps {
  deployments: Deployments;
  grading: Grading;
  /** A function when an admin can change it while the platform runs. */
  durationSeconds: number | (() => number);
  /** X-API-Key accepted by GET /deployments/{id} (services); none = owners only. */
  gatewayApiKey?: string;
  userId(c: BaseCtx): Promise<string>;
}

export function deploymentRoutes(r: Router, { deployments, grading, durationSeconds, gatewayApiKey, userId }: DeploymentRoutesDeps) {
  r.handle(operations.getDeploymentDuration, async () => ({
    duration_minutes: (typeof durationSeconds === "function" ? durationSeconds() : durationSeconds) / 60,
  }));
  // The SSH gateway's host key, so people can check the fingerprint OpenSSH shows on a first
  // connection (or add the known_hosts line beforehand) instead of trusting it blindly.
  r.handle(operations.getSshConfig, async () => {
    const ssh = deployments.sshEndpoint();
    if (!ssh?.hostKeyFingerprint || !ssh.hostPublicKey) throw unavailable("The SSH gateway is not running.");
    const hostField = ssh.port === 22 ? ssh.host : `[${ssh.host}]:${ssh.port}`;
    return {
      ssh_host: ssh.host,
      ssh_port: ssh.port,
      host_key_fingerprint: ssh.hostKeyFingerprint,
      host_public_key: ssh.hostPublicKey,
      known_hosts: `${hostField} ${ssh.hostPublicKey}`,
    };
  });
  r.handle(operations.getActiveDeployment, async (c) => deployments.activeDeployment(await userId(c)));
  r.handle(operations.getChallengeDeployment, async (c) => deployments.forChallenge(await userId(c), c.params.id));
  r.handle(operations.startDeployment, async (c) => deployments.start(await userId(c), c.params.id));
  r.handle(operations.extendDeployment, async (c) => deployments.extend(await userId(c), c.params.id));
  r.handle(operations.terminateDeployment, async (c) => deployments.terminate(await userId(c), c.params.id));
  r.handle(operations.submitAnswer, async (c) => grading.submit(await userId(c), c.params.id, c.body));

  // Fallback polling: the owner's bearer token, or the services' key (never given to browsers).
  r.handle(operations.getDeployment, async (c) => {
    const key = c.request.headers.get("x-api-key");
    if (key !== null) {
      if (!gatewayApiKey || !safeEqual(key, gatewayApiKey)) throw unauthorized("Invalid API key");
      return deployments.get(c.params.id, null);
    }
    return deployments.get(c.params.id, await userId(c));
  });
}
