// "Export my data": everything personal the platform holds about the caller, as one JSON
// document: profile, settings, key fingerprints, linked accounts, deployments, submissions,
// solves, achievements, recordings' metadata and the audit entries about them. Never a secret:
// no password hash, TOTP secret, token, scenario value or public key body (its fingerprint says
// which key it is).
import type { AccountExport } from "#shared/contract/index.ts";
import type { Db } from "#server/db/index.ts";
import type { Audit } from "#server/core/audit.ts";
import { unauthorized } from "#server/core/errors.ts";
import type { RateLimiter } from "#server/core/ratelimit.ts";
import type { Scoring } from "#server/core/scoring.ts";
import { EXPORT_PER_USER } from "./limits.ts";

export interface AccountExportDeps {
  db: Db;
  scoring?: Pick<Scoring, "userStats">;
  audit?: Pick<Audit, "record">;
  limiter?: Pick<RateLimiter, "consume">;
}

const flag = (v: number) => v === 1;
const parse = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

export function createAccountExport({ db, scoring, audit, limiter }: AccountExportDeps) {
  async function exportData(userId: string): Promise<AccountExport> {
    // A few a day: each one reads and serialises everything the player stored on the main thread
    // (up to a few MB of JSON, decision 016), which one caller in a loop must not turn into a stall.
    await limiter?.consume(`export:${userId}`, EXPORT_PER_USER);
    const u = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!u) throw unauthorized("User no longer exists");
    const [linked, deployments, submissions, solves, recordings, entries, stats] = await Promise.all([
      db.selectFrom("oauth_accounts").select(["provider", "login", "email", "created_at"]).where("user_id", "=", userId).execute(),
      db
        .selectFrom("deployments")
        .select(["id", "challenge_id", "status", "created_at", "ended_at", "expires_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute(),
      db
        .selectFrom("submissions")
        .select(["id", "challenge_id", "deployment_id", "solution", "is_correct", "feedback", "created_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute(),
      db.selectFrom("solves").select(["challenge_id", "points", "solve_seconds", "solved_at"]).where("user_id", "=", userId).orderBy("solved_at").execute(),
      db
        .selectFrom("recordings")
        .select(["id", "challenge_id", "source", "started_at", "ended_at", "bytes", "published"])
        .where("user_id", "=", userId)
        .orderBy("started_at")
        .execute(),
      // About them: what they did, and what was done to their account, matched by their id
      // (never by name: a username may equal a challenge id, which other players' entries name).
      db
        .selectFrom("audit_log")
        .select(["at", "actor_id", "action", "target_type", "target_id", "ip", "detail"])
        .where((eb) => eb.or([eb("actor_id", "=", userId), eb.and([eb("target_type", "=", "user"), eb("target_id", "=", userId)])]))
        .orderBy("id")
        .execute(),
      scoring?.userStats(userId),
    ]);
    await audit?.record({ action: "account.exported", actorId: userId });
    return {
      format: "faultline-account-export",
      version: 2,
      exported_at: new Date().toISOString(),
      profile: {
        id: u.id,
        username: u.username,
        email: u.email,
        display_name: u.display_name,
        bio: u.bio,
        location: u.location,
        github_username: u.github_username,
        oauth_provider: u.oauth_provider,
        is_verified: flag(u.is_verified),
        is_admin: flag(u.is_admin),
        theme: u.theme,
        plan: u.plan,
        plan_until: u.plan_until === null ? null : Number(u.plan_until),
        two_factor_enabled: flag(u.totp_enabled),
        has_password: u.password_hash !== null,
        created_at: Number(u.created_at),
        updated_at: Number(u.updated_at),
      },
      settings: {
        notifications: {
          newChallenges: flag(u.notify_new_challenges),
          solutionFeedback: flag(u.notify_solution_feedback),
          leaderboardUpdates: flag(u.notify_leaderboard_updates),
          marketingEmails: flag(u.notify_marketing),
        },
      },
      ssh_keys: u.ssh_key_fingerprint ? [{ fingerprint: u.ssh_key_fingerprint }] : [],
      connected_accounts: linked.map((l) => ({ provider: l.provider, login: l.login, email: l.email, linked_at: Number(l.created_at) })),
      deployments: deployments.map((d) => ({
        ...d,
        created_at: Number(d.created_at),
        ended_at: d.ended_at === null ? null : Number(d.ended_at),
        expires_at: Number(d.expires_at),
      })),
      submissions: submissions.map((s) => ({ ...s, is_correct: flag(s.is_correct), created_at: Number(s.created_at) })),
      solves: solves.map((s) => ({ ...s, solved_at: Number(s.solved_at) })),
      achievements: (stats?.achievements ?? []).map((a) => ({ id: a.id, title: a.title, unlocked: a.unlocked })),
      recordings: recordings.map((r) => ({
        ...r,
        started_at: Number(r.started_at),
        ended_at: r.ended_at === null ? null : Number(r.ended_at),
        bytes: Number(r.bytes),
        published: r.published === 1,
      })),
      // An address is given only for their own acts (and attempts on their account): what an
      // admin did to them keeps the admin's address out.
      audit_entries: entries.map((e) => ({
        at: Number(e.at),
        action: e.action,
        target_type: e.target_type,
        target_id: e.target_id,
        ip: e.actor_id === userId ? e.ip : null,
        detail: parse(e.detail),
      })),
    };
  }

  return { exportData };
}
export type AccountExporter = ReturnType<typeof createAccountExport>;
