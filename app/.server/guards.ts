// The first line of a route's loader or action: who may be here.
import { redirect, type RouterContextProvider } from "react-router";
import { type Web, webContext } from "./context.ts";

type Ctx = Readonly<RouterContextProvider>;

export const getWeb = (context: Ctx): Web => context.get(webContext);

/** A local path to come back to; anything else (other hosts, odd schemes) becomes /profile. */
export function safeRedirect(to: unknown, fallback = "/profile"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

export function requireUser(context: Ctx, request: Request) {
  const web = getWeb(context);
  if (!web.user || !web.token) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return { web, user: web.user, token: web.token, api: web.api.as(web.token) };
}

export function requireAnonymous(context: Ctx) {
  if (getWeb(context).user) throw redirect("/profile");
}

export function requireAdmin(context: Ctx, request: Request) {
  const auth = requireUser(context, request);
  if (!auth.user.is_admin) throw redirect("/unauthorized");
  return auth;
}
