import { Link } from "react-router";
import type { Route } from "./+types/profile-own";
import { requireUser } from "../.server/guards.ts";
import { ProfileHeader } from "../components/profile-header.tsx";

export function meta() {
  return [{ title: "profile | faultline" }];
}

export function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireUser(context, request);
  return { user };
}

export default function OwnProfile({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <div className="space-y-6">
      {!user.is_verified ? (
        <div className="alert-warn" data-testid="unverified-notice">
          Email verification required to start challenges. Please check your email and verify your account.{" "}
          <Link to="/profile/settings?tab=security">Resend the link</Link>
        </div>
      ) : null}
      {!user.has_ssh_key ? (
        <div className="alert-warn">
          An SSH key is required to access challenge environments. <Link to="/profile/settings?tab=security">Add your public key</Link>
        </div>
      ) : null}
      <ProfileHeader user={user} own />
      <section className="panel">
        <h2 className="prompt font-bold">history | tail</h2>
        <p className="mt-3 text-sm text-zinc-500">No activity yet. Solved challenges will show up here.</p>
      </section>
    </div>
  );
}
