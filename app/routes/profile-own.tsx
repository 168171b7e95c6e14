import { Link } from "react-router";
import type { Route } from "./+types/profile-own";
import { VERIFY_TO_START } from "../../shared/rules.ts";
import { requireUser } from "../.server/guards.ts";
import { loadProfileExtras, profileTab } from "../.server/profile.ts";
import { ProfileHeader } from "../components/profile-header.tsx";
import { ProfileTabs } from "../components/player/profile-tabs.tsx";

export function meta() {
  return [{ title: "profile | faultline" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { web, user } = requireUser(context, request);
  // The user was read fresh for this request (root middleware): points and rank are current.
  return { user, tab: profileTab(request), ...(await loadProfileExtras(web, user.username)) };
}

export default function OwnProfile({ loaderData }: Route.ComponentProps) {
  const { user, tab, activity, solved, extrasError } = loaderData;
  return (
    <div className="space-y-6">
      {!user.is_verified ? (
        <div className="alert-warn" data-testid="unverified-notice">
          {VERIFY_TO_START}{" "}
          <Link to="/profile/settings?tab=security">Resend the link</Link>
        </div>
      ) : null}
      {!user.has_ssh_key ? (
        <div className="alert-warn">
          An SSH key is required to access challenge environments. <Link to="/profile/settings?tab=security">Add your public key</Link>
        </div>
      ) : null}
      <ProfileHeader user={user} own />
      <ProfileTabs base="/profile" tab={tab} user={user} activity={activity} solved={solved} error={extrasError} />
    </div>
  );
}
