import type { Route } from "./+types/settings";
import { requireUser } from "../.server/guards.ts";

export function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireUser(context, request);
  return { user };
}

export default function Settings() {
  return <p>settings</p>;
}
