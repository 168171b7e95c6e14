// What both profile pages load besides the user: the tab asked for (?tab=, so tabs work without
// JavaScript) and its data: recent activity, achievements (on the user), solved challenges and
// the sessions published with them.
import type { Web } from "./context.ts";
import { PROFILE_TABS, type ProfileTab } from "#app/lib/player.ts";

export function profileTab(request: Request): ProfileTab {
  const tab = new URL(request.url).searchParams.get("tab");
  return (PROFILE_TABS as readonly string[]).includes(tab ?? "") ? (tab as ProfileTab) : "overview";
}

export async function loadProfileExtras(web: Web, username: string) {
  const [activity, solved, published] = await Promise.all([
    web.api.getRecentActivity({ params: { username } }),
    web.api.listSolvedChallenges({ params: { username } }),
    // Sessions the player chose to publish (replayable by anyone); private ones are never listed.
    web.api.listPublishedSolutions({ params: { username } }),
  ]);
  return {
    activity: activity.ok ? activity.data.activity : [],
    solved: solved.ok ? solved.data.challenges : [],
    published: published.ok ? published.data.solutions : [],
    extrasError: activity.ok && solved.ok ? null : (activity.ok ? "" : activity.detail) || (solved.ok ? "" : solved.detail) || "Failed to load",
  };
}
