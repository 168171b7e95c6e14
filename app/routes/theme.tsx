// Switches dark/light: saved on the account when signed in, in the session otherwise.
import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { getWeb, safeRedirect } from "#app/.server/guards.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const web = getWeb(context);
  const form = await request.formData();
  const theme = form.get("theme") === "light" ? "light" : "dark";
  web.session.set("theme", theme);
  web.touch();
  if (web.token) await web.api.as(web.token).updateProfile({ body: { theme } });
  const back = request.headers.get("referer");
  throw redirect(safeRedirect(back ? new URL(back).pathname + new URL(back).search : "/", "/"));
}

export function loader() {
  return redirect("/");
}
