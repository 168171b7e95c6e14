// What both profile pages load besides the user: the tab asked for (?tab=, so tabs work without
// JavaScript) and its data: recent activity, achievements (on the user), solved challenges.
import type { Web } from "./context.ts";
import { PROFILE_TABS, type ProfileTab } from "../lib/player.ts";

export function profileTab(request: Request): ProfileTab {
  const tab = new URL(request.url).searchParams.get("tab");
  return (PROFILE_TABS as readonly string[]).includes(tab ?? "") ? (tab as ProfileTab) : "overview";
}

export async function loadProfileExtras(web: Web, username: string) {
  const [activity, solved] = await Promise.all([web.api.userActivity(username), web.api.userChallenges(username)]);
  return {
    activity: activity.ok ? activity.data.activity : [],
    solved: solved.ok ? solved.data.challenges : [],
    extrasError: activity.ok && solved.ok ? null : (activity.ok ? "" : activity.detail) || (solved.ok ? "" : solved.detail) || "Failed to load",
  };
}
