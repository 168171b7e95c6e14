// Deployments and grading over HTTP (docs/api.md, "Deployments (challenge sessions) and
// grading", and the fallback polling endpoint). Registered before the catalogue's
// /challenges/:id routes, since the router matches in order and "active-session" and "config"
// are not challenge ids.
import type { Deployments } from "../core/deployments/index.ts";
import { unauthorized, unavailable } from "../core/errors.ts";
import type { Grading } from "../core/grading.ts";
import { safeEqual } from "../core/secrets.ts";
import { type Ctx, json, parse, type Router } from "./router.ts";
import * as s from "./schemas.ts";

export interface DeploymentRoutesDeps {
  deployments: Deployments;
  grading: Grading;
  /** A function when an admin can change it while the platform runs. */
  durationSeconds: number | (() => number);
  /** X-API-Key accepted by GET /deployments/{id} (services); none = owners only. */
  gatewayApiKey?: string;
  userId(c: Ctx): Promise<string>;
}

export function deploymentRoutes(r: Router, { deployments, grading, durationSeconds, gatewayApiKey, userId }: DeploymentRoutesDeps) {
  const challengeId = (c: Ctx) => parse(s.challengeIdParam, c.params.id);

  r.get("/challenges/config/session-duration", { summary: "How long a deployment lasts", tags: ["Deployments"], access: "public" }, async () => ({
    duration_minutes: (typeof durationSeconds === "function" ? durationSeconds() : durationSeconds) / 60,
  }));
  // The SSH gateway's host key, so people can check the fingerprint OpenSSH shows on a first
  // connection (or add the known_hosts line beforehand) instead of trusting it blindly.
  r.get(
    "/challenges/config/ssh",
    { summary: "The SSH gateway's address and host key", tags: ["Deployments"], access: "public", errors: { 503: "The SSH gateway is not running" } },
    async () => {
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
    },
  );
  r.get("/challenges/active-session", { summary: "The user's active deployment, if any", tags: ["Deployments"], access: "user" }, async (c) =>
    deployments.activeDeployment(await userId(c)),
  );
  r.get(
    "/challenges/:id/active-session",
    { summary: "The user's deployment of this challenge, if any", tags: ["Deployments"], access: "user", params: { id: s.challengeIdParam } },
    async (c) => deployments.forChallenge(await userId(c), challengeId(c)),
  );
  r.post(
    "/challenges/:id/session/start",
    {
      summary: "Start a deployment of a challenge (progress on the live channel)",
      tags: ["Deployments"],
      access: "user",
      params: { id: s.challengeIdParam },
      status: 201,
      errors: {
        403: "Not allowed by the plan, maintenance or e-mail not verified",
        404: "No such challenge",
        409: "Already running",
        429: "Too many starts",
        503: "No capacity or no engine",
      },
    },
    async (c) => json(await deployments.start(await userId(c), challengeId(c)), 201),
  );
  r.post(
    "/challenges/:id/session/extend",
    {
      summary: "Extend the running deployment",
      tags: ["Deployments"],
      access: "user",
      params: { id: s.challengeIdParam },
      errors: { 404: "No deployment of this challenge", 409: "Only a ready deployment can be extended" },
    },
    async (c) => deployments.extend(await userId(c), challengeId(c)),
  );
  r.post(
    "/challenges/:id/session/terminate",
    {
      summary: "End the deployment",
      tags: ["Deployments"],
      access: "user",
      params: { id: s.challengeIdParam },
      errors: { 404: "No deployment of this challenge" },
    },
    async (c) => deployments.terminate(await userId(c), challengeId(c)),
  );
  r.post(
    "/challenges/:id/submit",
    {
      summary: "Submit a solution: the check runs in the deployment",
      tags: ["Deployments"],
      access: "user",
      params: { id: s.challengeIdParam },
      body: s.submitBody,
      errors: { 404: "No such challenge", 409: "No ready deployment or a check already running", 429: "Too many submissions" },
    },
    async (c) => {
      const user = await userId(c);
      return grading.submit(user, challengeId(c), await c.body(s.submitBody));
    },
  );

  // Fallback polling: the owner's bearer token, or the services' key (never given to browsers).
  r.get(
    "/deployments/:id",
    {
      summary: "A deployment's state (fallback polling): its owner, or a service with X-API-Key",
      tags: ["Deployments"],
      access: "service",
      params: { id: s.deploymentIdParam },
      errors: { 404: "No such deployment" },
    },
    async (c) => {
      const id = parse(s.deploymentIdParam, c.params.id);
      const key = c.request.headers.get("x-api-key");
      if (key !== null) {
        if (!gatewayApiKey || !safeEqual(key, gatewayApiKey)) throw unauthorized("Invalid API key");
        return deployments.get(id, null);
      }
      return deployments.get(id, await userId(c));
    },
  );
}
