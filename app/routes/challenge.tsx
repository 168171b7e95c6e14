import type { Route } from "./+types/challenge";
import { requireUser } from "../.server/guards.ts";
import { ComingSoon } from "../components/coming-soon.tsx";

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Challenge() {
  return <ComingSoon title="cat challenge.md" what="Start an environment, connect with ssh, fix it and submit your solution." />;
}
