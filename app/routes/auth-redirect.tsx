import { redirect } from "react-router";
import type { Route } from "./+types/auth-redirect";

export function loader({ request }: Route.LoaderArgs) {
  return redirect("/login" + new URL(request.url).search);
}
