import { data } from "react-router";
import type { Route } from "./+types/profile-public";
import { freshnessHeaders } from "#app/.server/cache.ts";
import { getWeb } from "#app/.server/guards.ts";
import { loadProfileExtras, profileTab } from "#app/.server/profile.ts";
import { ProfileHeader } from "#app/components/profile-header.tsx";
import { ProfileTabs } from "#app/components/player/profile-tabs.tsx";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `${params.username} | faultline` }];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const web = getWeb(context);
  const res = await web.api.getPublicProfile({ params: { username: params.username } });
  // A missing profile is the Not-found page, with its 404.
  if (!res.ok && res.status === 404) throw data(null, { status: 404 });
  if (!res.ok) {
    return data({ error: `Error loading profile: ${res.detail || "unknown error"}`, profile: null }, { status: res.status });
  }
  const own = web.user?.username.toLowerCase() === res.data.username.toLowerCase();
  const extras = await loadProfileExtras(web, res.data.username);
  return data({ error: null, profile: { user: res.data, own, tab: profileTab(request), ...extras } }, { headers: freshnessHeaders(web) });
}

export default function PublicProfile({ loaderData }: Route.ComponentProps) {
  const { profile, error } = loaderData;
  if (!profile)
    return (
      <div className="alert-error" data-testid="profile-error">
        {error}
      </div>
    );
  const { user, own, tab, activity, solved, published, extrasError } = profile;
  return (
    <div className="space-y-6">
      <ProfileHeader user={user} own={own} />
      <ProfileTabs
        base={`/profile/${encodeURIComponent(user.username)}`}
        tab={tab}
        user={user}
        activity={activity}
        solved={solved}
        published={published}
        error={extrasError}
      />
    </div>
  );
}
