import { data, redirect } from "react-router";
import { Link } from "#app/components/link.tsx";
import { z } from "zod";
import type { Route } from "./+types/profile-own";
import { VERIFY_TO_START } from "#shared/rules.ts";
import { requireUser } from "#app/.server/guards.ts";
import { loadProfileExtras, profileTab } from "#app/.server/profile.ts";
import { ProfileHeader } from "#app/components/profile-header.tsx";
import { ProfileTabs } from "#app/components/player/profile-tabs.tsx";

export function meta() {
  return [{ title: "profile | faultline" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { web, user, api } = requireUser(context, request);
  // The identity check of every page reads no statistics: this page asks for them (current
  // points and rank); the identity stands in only if that call fails.
  const tab = profileTab(request);
  const [me, extras, recordings] = await Promise.all([
    api.getMe(),
    loadProfileExtras(web, user.username),
    // The Solutions tab lists the player's own recorded sessions, each publishable.
    tab === "solutions" ? api.listMyRecordings() : null,
  ]);
  if (!me.ok) throw data(me.detail || "Failed to load your profile", { status: me.status });
  return { user: me.data, tab, ...extras, ownRecordings: recordings?.ok ? recordings.data.recordings : [] };
}

const publishSchema = z.object({
  intent: z.literal("publish"),
  recording_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  published: z.enum(["0", "1"]),
});

/** Publish a solved session on the profile, or make it private again (a plain form post). */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = requireUser(context, request);
  const parsed = publishSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown profile form" }, { status: 400 });
  const res = await api.setRecordingPublished({ params: { id: parsed.data.recording_id }, body: { published: parsed.data.published === "1" } });
  if (!res.ok) return data({ error: res.detail || "The session could not be changed." }, { status: res.status });
  return redirect("/profile?tab=solutions");
}

export default function OwnProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { user, tab, activity, solved, published, ownRecordings, extrasError } = loaderData;
  return (
    <div className="space-y-6">
      {!user.is_verified ? (
        <div className="alert-warn" data-testid="unverified-notice">
          {VERIFY_TO_START} <Link to="/profile/settings?tab=security">Resend the link</Link>
        </div>
      ) : null}
      {!user.has_ssh_key ? (
        <div className="alert-warn">
          An SSH key is required to access challenge environments. <Link to="/profile/settings?tab=security">Add your public key</Link>
        </div>
      ) : null}
      <ProfileHeader user={user} own />
      {actionData?.error ? (
        <p className="alert-error" role="alert" data-testid="publish-error">
          {actionData.error}
        </p>
      ) : null}
      <ProfileTabs
        base="/profile"
        tab={tab}
        user={user}
        activity={activity}
        solved={solved}
        published={published}
        ownRecordings={ownRecordings}
        error={extrasError}
      />
    </div>
  );
}
