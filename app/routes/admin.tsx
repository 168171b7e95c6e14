import type { Route } from "./+types/admin";
import { requireAdmin } from "../.server/guards.ts";
import { ComingSoon } from "../components/coming-soon.tsx";

export function meta() {
  return [{ title: "admin | faultline" }];
}

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export default function Admin() {
  return <ComingSoon title="sudo admin" what="The admin console: users, challenges, system and logs." />;
}
