// The first line of a route's loader or action: who may be here.
import { redirect, type RouterContextProvider } from "react-router";
import { type Web, webContext } from "./context.ts";

type Ctx = Readonly<RouterContextProvider>;

export const getWeb = (context: Ctx): Web => context.get(webContext);

// Any origin that can never be a real one: only paths resolved against it are accepted.
const HERE = new URL("http://faultline.invalid/");

/**
 * A local path to come back to; anything else becomes the fallback (/profile). Parsed, not
 * prefix-checked: browsers drop tab, CR and LF inside a URL and read a backslash as a slash,
 * so `/\t/evil.example` or `/\\evil.example` would leave the site. The value must be a path
 * with no control characters or backslashes that resolves to this origin; what is returned is
 * the resolved path, query and fragment, never a form that another host could be read from.
 */
export function safeRedirect(to: unknown, fallback = "/profile"): string {
  if (typeof to !== "string" || !to.startsWith("/") || /[\x00-\x1f\x7f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, HERE);
  } catch {
    return fallback;
  }
  if (url.origin !== HERE.origin) return fallback;
  const local = url.pathname + url.search + url.hash;
  // "/.//evil.example" resolves to the path "//evil.example", which a browser reads as a host.
  if (!local.startsWith("/") || local.startsWith("//")) return fallback;
  return local;
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
