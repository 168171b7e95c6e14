import { data } from "react-router";
import type { Route } from "./+types/profile-public";
import { getWeb } from "../.server/guards.ts";
import { ProfileHeader } from "../components/profile-header.tsx";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `${params.username} | faultline` }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  const res = await web.api.publicProfile(params.username);
  if (!res.ok && res.status === 404) throw data(null, { status: 404 });
  if (!res.ok) return { error: `Error loading profile: ${res.detail || "unknown error"}`, user: null, own: false };
  return { error: null, user: res.data, own: web.user?.username.toLowerCase() === res.data.username.toLowerCase() };
}

export default function PublicProfile({ loaderData }: Route.ComponentProps) {
  if (!loaderData.user) return <div className="alert-error">{loaderData.error}</div>;
  return (
    <div className="space-y-6">
      <ProfileHeader user={loaderData.user} own={loaderData.own} />
      <section className="panel">
        <h2 className="prompt font-bold">history | tail</h2>
        <p className="mt-3 text-sm text-zinc-500">No activity yet.</p>
      </section>
    </div>
  );
}
