// The API's JSON shapes for a challenge's detail and a user's deployment of it (the timed
// environment; the API's URLs call it a "challenge session": /challenges/{id}/session/start),
// and the deployment status enum. docs/api.md ("Deployments (challenge sessions) and grading")
// describes the same answers in prose. A leaf: it imports nothing, so the web (server and
// browser bundle) and the server may both take it; the server keeps its own row types.
import { z } from "zod";
import type { ChallengeGrading } from "./catalogue.ts";
import { challengeIdParam, deploymentIdParam, submitBody } from "./inputs.ts";
import { defineOperations } from "./operation.ts";
import { submissionResultSchema } from "./scoring.ts";

/** Every status a deployment can be in; "idle" means there is none (GET .../active-session). */
// "resetting": a ready deployment being replaced by fresh containers (same expiry, same ssh user).
export const DEPLOYMENT_STATUSES = ["idle", "queued", "deploying", "setting_up", "ready", "resetting", "failed", "terminated"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const isDeploymentStatus = (v: unknown): v is DeploymentStatus => typeof v === "string" && (DEPLOYMENT_STATUSES as readonly string[]).includes(v);

/** The statuses of a deployment that exists and holds (or is getting) a container. */
export const ACTIVE_DEPLOYMENT_STATUSES = ["queued", "deploying", "setting_up", "ready", "resetting"] as const satisfies readonly DeploymentStatus[];
export const isActiveStatus = (s: DeploymentStatus) => (ACTIVE_DEPLOYMENT_STATUSES as readonly DeploymentStatus[]).includes(s);

/** How to reach a ready deployment. Port and user may be left out (then 22 and ubuntu). */
export const sshDetailsSchema = z.object({
  ssh_host: z.string(),
  ssh_port: z.number().nullish(),
  ssh_user: z.string().nullish(),
  /** The gateway's host key fingerprint ("SHA256:..."), shown to check the first connection. */
  host_key_fingerprint: z.string().nullish(),
});
export type SshDetails = z.infer<typeof sshDetailsSchema>;

/** GET /challenges/{id}. */
export interface ChallengeDetail {
  uid: string;
  title: string;
  difficulty_level: string;
  points: number;
  category: string;
  estimated_time_minutes: number;
  description: string;
  short_description: string;
  instructions?: string | null;
  hint_count?: number;
  /** How it is graded (the fix live and after a reboot; what the written answer must name). */
  grading?: ChallengeGrading;
}

/** A deployment as its owner (or a service) sees it: GET /deployments/{id}. */
export const deploymentViewSchema = z.object({
  deployment_id: z.string(),
  challenge_id: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  expires_at: z.string(),
  created_at: z.string(),
  ready_at: z.string().nullable(),
  ssh_details: sshDetailsSchema.nullable(),
  websocket_url: z.string(),
  error_message: z.string().nullable(),
});
export type DeploymentView = z.infer<typeof deploymentViewSchema>;

/** GET /challenges/{id}/active-session: the user's deployment of one challenge ("idle" with
 *  nulls when there is none). */
export const challengeDeploymentSchema = z.object({
  deployment_id: z.string().nullable(),
  challenge_id: z.string().optional(),
  status: z.enum(DEPLOYMENT_STATUSES),
  expires_at: z.string().nullable(),
  created_at: z.string().optional(),
  ready_at: z.string().nullable().optional(),
  ssh_details: sshDetailsSchema.nullable(),
  websocket_url: z.string().nullable(),
  error_message: z.string().nullable(),
});
export type ChallengeDeployment = z.infer<typeof challengeDeploymentSchema>;

/** GET /challenges/active-session: the user's active deployment of any challenge. */
export const activeDeploymentLookupSchema = z.object({
  has_active_session: z.boolean(),
  active_session: z
    .object({
      deployment_id: z.string(),
      challenge_id: z.string(),
      challenge_title: z.string(),
      status: z.enum(DEPLOYMENT_STATUSES),
      expires_at: z.string().nullable(),
    })
    .nullable(),
});
export type ActiveDeploymentLookup = z.infer<typeof activeDeploymentLookupSchema>;

/** POST /challenges/{id}/session/start (201; the deployment goes on in the background). */
export const startDeploymentResultSchema = z.object({
  expires_at: z.string(),
  deployment_status: z.object({ deployment_id: z.string(), status: z.enum(DEPLOYMENT_STATUSES) }),
  session_id: z.string().optional(),
});
export type StartDeploymentResult = z.infer<typeof startDeploymentResultSchema>;

/** POST /challenges/{id}/session/extend. */
export const extendDeploymentResultSchema = z.object({ expires_at: z.string(), message: z.string() });
export type ExtendDeploymentResult = z.infer<typeof extendDeploymentResultSchema>;

/** POST /challenges/{id}/session/terminate. */
export const terminateDeploymentResultSchema = z.object({ message: z.string(), deployment_id: z.string() });
export type TerminateDeploymentResult = z.infer<typeof terminateDeploymentResultSchema>;

/** GET /challenges/config/session-duration: how long a deployment lasts, and each extension. */
export const deploymentDurationSchema = z.object({ duration_minutes: z.number() });
export type DeploymentDuration = z.infer<typeof deploymentDurationSchema>;

/** GET /challenges/config/ssh: the gateway's address and host key (checked on first connection). */
export const sshConfigSchema = z.object({
  ssh_host: z.string(),
  ssh_port: z.number(),
  host_key_fingerprint: z.string(),
  host_public_key: z.string(),
  known_hosts: z.string(),
});
export type SshConfig = z.infer<typeof sshConfigSchema>;

/** What a submission sends. */
export type SubmissionBody = z.input<typeof submitBody>;

const challenge = z.object({ id: challengeIdParam });

export const deploymentOperations = defineOperations({
  getDeploymentDuration: {
    method: "GET",
    path: "/challenges/config/session-duration",
    summary: "How long a deployment lasts",
    tags: ["Deployments"],
    access: "public",
    personalToken: "read",
    response: deploymentDurationSchema,
  },
  getSshConfig: {
    method: "GET",
    path: "/challenges/config/ssh",
    summary: "The SSH gateway's address and host key",
    tags: ["Deployments"],
    access: "public",
    personalToken: "read",
    errors: { 503: "The SSH gateway is not running" },
    response: sshConfigSchema,
  },
  getActiveDeployment: {
    method: "GET",
    path: "/challenges/active-session",
    summary: "The user's active deployment, if any",
    tags: ["Deployments"],
    access: "user",
    personalToken: "read",
    response: activeDeploymentLookupSchema,
  },
  getChallengeDeployment: {
    method: "GET",
    path: "/challenges/:id/active-session",
    summary: "The user's deployment of this challenge, if any",
    tags: ["Deployments"],
    access: "user",
    personalToken: "read",
    params: challenge,
    response: challengeDeploymentSchema,
  },
  startDeployment: {
    method: "POST",
    path: "/challenges/:id/session/start",
    summary: "Start a deployment of a challenge (progress on the live channel)",
    tags: ["Deployments"],
    access: "user",
    personalToken: "play",
    params: challenge,
    status: 201,
    errors: {
      403: "Not allowed by the plan, maintenance or e-mail not verified",
      404: "No such challenge",
      409: "Already running",
      429: "Too many starts",
      503: "No capacity or no engine",
    },
    response: startDeploymentResultSchema,
  },
  extendDeployment: {
    method: "POST",
    path: "/challenges/:id/session/extend",
    summary: "Extend the running deployment",
    tags: ["Deployments"],
    access: "user",
    params: challenge,
    errors: { 404: "No deployment of this challenge", 409: "Only a ready deployment can be extended" },
    response: extendDeploymentResultSchema,
  },
  terminateDeployment: {
    method: "POST",
    path: "/challenges/:id/session/terminate",
    summary: "End the deployment",
    tags: ["Deployments"],
    access: "user",
    personalToken: "play",
    params: challenge,
    errors: { 404: "No deployment of this challenge" },
    response: terminateDeploymentResultSchema,
  },
  submitAnswer: {
    method: "POST",
    path: "/challenges/:id/submit",
    summary: "Submit an answer: the check runs in the deployment",
    tags: ["Deployments"],
    access: "user",
    personalToken: "play",
    params: challenge,
    body: submitBody,
    errors: { 404: "No such challenge", 409: "No ready deployment or a check already running", 429: "Too many submissions" },
    response: submissionResultSchema,
  },
  getDeployment: {
    method: "GET",
    path: "/deployments/:id",
    summary: "A deployment's state (fallback polling): its owner, or a service with X-API-Key",
    tags: ["Deployments"],
    access: "service",
    params: z.object({ id: deploymentIdParam }),
    errors: { 404: "No such deployment" },
    response: deploymentViewSchema,
  },
});
