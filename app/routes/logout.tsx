import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { getWeb } from "#app/.server/guards.ts";

export async function action({ context }: Route.ActionArgs) {
  const web = getWeb(context);
  await web.api.logout({ body: { refresh_token: web.session.get("tokens")?.refresh_token } });
  web.signOut();
  throw redirect("/");
}

export function loader() {
  return redirect("/");
}
