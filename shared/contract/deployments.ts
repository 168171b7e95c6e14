import type { ChallengeGrading } from "./catalogue.ts";
// The API's JSON shapes for a challenge's detail and a user's deployment of it (the timed
// environment; the API's URLs call it a "challenge session": /challenges/{id}/session/start),
// and the deployment status enum. docs/api.md ("Deployments (challenge sessions) and grading")
// describes the same answers in prose. A leaf: it imports nothing, so the web (server and
// browser bundle) and the server may both take it; the server keeps its own row types.

/** Every status a deployment can be in; "idle" means there is none (GET .../active-session). */
// "resetting": a ready deployment being replaced by fresh containers (same expiry, same ssh user).
export const DEPLOYMENT_STATUSES = ["idle", "queued", "deploying", "setting_up", "ready", "resetting", "failed", "terminated"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const isDeploymentStatus = (v: unknown): v is DeploymentStatus => typeof v === "string" && (DEPLOYMENT_STATUSES as readonly string[]).includes(v);

/** The statuses of a deployment that exists and holds (or is getting) a container. */
export const ACTIVE_DEPLOYMENT_STATUSES = ["queued", "deploying", "setting_up", "ready", "resetting"] as const satisfies readonly DeploymentStatus[];
export const isActiveStatus = (s: DeploymentStatus) => (ACTIVE_DEPLOYMENT_STATUSES as readonly DeploymentStatus[]).includes(s);

/** How to reach a ready deployment. Port and user may be left out (then 22 and ubuntu). */
export interface SshDetails {
  ssh_host: string;
  ssh_port?: number | null;
  ssh_user?: string | null;
  /** The gateway's host key fingerprint ("SHA256:..."), shown to check the first connection. */
  host_key_fingerprint?: string | null;
}

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

/** GET /challenges/{id}/active-session: the user's deployment of one challenge ("idle" with
 *  nulls when there is none). */
export interface ChallengeDeployment {
  deployment_id: string | null;
  status: DeploymentStatus;
  expires_at: string | null;
  ssh_details: SshDetails | null;
  websocket_url: string | null;
  error_message: string | null;
}

/** GET /challenges/active-session: the user's active deployment of any challenge. */
export interface ActiveDeploymentLookup {
  has_active_session: boolean;
  active_session: {
    deployment_id: string;
    challenge_id: string;
    challenge_title: string;
    status: DeploymentStatus;
    expires_at: string | null;
  } | null;
}

/** POST /challenges/{id}/session/start (201; the deployment goes on in the background). */
export interface StartDeploymentResult {
  expires_at: string;
  deployment_status: { deployment_id: string; status: DeploymentStatus };
  session_id?: string;
}

/** POST /challenges/{id}/session/extend. */
export interface ExtendDeploymentResult {
  expires_at: string;
  message: string;
}

/** POST /challenges/{id}/session/terminate. */
export interface TerminateDeploymentResult {
  message: string;
  deployment_id: string;
}

/** GET /challenges/config/session-duration: how long a deployment lasts, and each extension. */
export interface DeploymentDuration {
  duration_minutes: number;
}
