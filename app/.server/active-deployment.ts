// The signed-in user's active deployment for the global banner, and the cookie that remembers
// which deployment's banner was dismissed (a new deployment shows the banner again).
import { createCookie } from "react-router";
import type { ActiveDeploymentLookup } from "#shared/contract/deployments.ts";
import type { Web } from "./context.ts";

export const bannerCookie = createCookie("fl_banner_dismissed", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 7 * 24 * 3600,
});

export type ActiveDeployment = NonNullable<ActiveDeploymentLookup["active_session"]> & { dismissed: boolean };

export async function activeDeploymentFor(web: Web, request: Request): Promise<ActiveDeployment | null> {
  if (!web.user || !web.token) return null;
  const res = await web.api.as(web.token).getActiveDeployment();
  if (!res.ok || !res.data.has_active_session || !res.data.active_session) return null;
  const dismissedId = await bannerCookie.parse(request.headers.get("cookie")).catch(() => null);
  return { ...res.data.active_session, dismissed: dismissedId === res.data.active_session.deployment_id };
}
