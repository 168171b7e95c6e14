// POST /banner/dismiss: hides the active-deployment banner for that deployment (remembered in
// a cookie). Without JavaScript it is a plain form post that comes back to the same page.
import { data, redirect } from "react-router";
import type { Route } from "./+types/banner-dismiss";
import { bannerCookie } from "#app/.server/active-deployment.ts";
import { getWeb, safeRedirect } from "#app/.server/guards.ts";
import { platformContext } from "#app/.server/context.ts";

export async function action({ request, context }: Route.ActionArgs) {
  if (!getWeb(context).user) throw data({ detail: "Authentication required" }, { status: 401 });
  const form = await request.formData();
  const id = String(form.get("deployment_id") ?? "").slice(0, 200);
  const secure = context.get(platformContext).secureCookies;
  const headers = { "Set-Cookie": await bannerCookie.serialize(id, { secure }) };
  if (form.get("js") === "1") return data({ ok: true }, { headers });
  return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers });
}

export function loader() {
  return redirect("/");
}
