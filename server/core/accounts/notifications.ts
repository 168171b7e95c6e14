// The notification settings at work: solution feedback by e-mail after each graded submission,
// and a digest of newly published challenges (at most one a day per user, sent by the worker).
// Each mail carries a one-click unsubscribe link: a signed token naming the user and the setting
// (no sign-in needed, nothing stored), announced with List-Unsubscribe and List-Unsubscribe-Post
// (RFC 8058) so mail clients can offer the button themselves. Only verified addresses get mail.
import { createHmac } from "node:crypto";
import { z } from "zod";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { Logger } from "#server/logger.ts";
import type { Mailer } from "#server/mail/mailer.ts";
import { badRequest } from "#server/core/errors.ts";
import { safeEqual } from "#server/core/secrets.ts";

export const DIGEST_EVERY_SECONDS = 24 * 3600;
export const UNSUBSCRIBE_INVALID = "This unsubscribe link is not valid.";

/** The settings a mail can be unsubscribed from, and the column each one is. */
export const MAIL_SETTINGS = {
  solution_feedback: { column: "notify_solution_feedback", label: "solution feedback" },
  new_challenges: { column: "notify_new_challenges", label: "new challenge announcements" },
} as const;
export type MailSetting = keyof typeof MAIL_SETTINGS;
export const mailSetting = z.enum(Object.keys(MAIL_SETTINGS) as [MailSetting, ...MailSetting[]]);

export interface NotificationsDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: URL;
  /** Signs unsubscribe tokens (derived from SESSION_SECRET by the caller). */
  secret: string;
  log?: Pick<Logger, "error" | "info">;
}

export interface GradedSubmission {
  challengeTitle: string;
  isCorrect: boolean;
  feedback: string;
  pointsAwarded: number;
  alreadySolved: boolean;
}

export function createNotifications({ db, mailer, publicUrl, secret, log }: NotificationsDeps) {
  const sign = (payload: string) => createHmac("sha256", secret).update(`unsubscribe:${payload}`).digest("base64url");

  function unsubscribeToken(userId: string, setting: MailSetting): string {
    const payload = Buffer.from(`${userId}:${setting}`).toString("base64url");
    return `${payload}.${sign(payload)}`;
  }

  function readToken(token: string): { userId: string; setting: MailSetting } {
    const [payload, sig, extra] = token.split(".");
    if (!payload || !sig || extra !== undefined || !safeEqual(sig, sign(payload))) throw badRequest(UNSUBSCRIBE_INVALID);
    const [userId, setting] = Buffer.from(payload, "base64url").toString("utf8").split(":");
    const parsed = mailSetting.safeParse(setting);
    if (!userId || !parsed.success) throw badRequest(UNSUBSCRIBE_INVALID);
    return { userId, setting: parsed.data };
  }

  /** The page a person opens (it asks before turning anything off: mail scanners follow links). */
  const pageLink = (token: string) => new URL(`/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString();
  /** The one-click POST target of List-Unsubscribe-Post. */
  const oneClickLink = (token: string) => new URL(`/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`, publicUrl).toString();

  async function sendWithUnsubscribe(user: { id: string; email: string }, setting: MailSetting, subject: string, lines: string[]) {
    const token = unsubscribeToken(user.id, setting);
    await mailer.send({
      to: user.email,
      subject,
      text: [
        ...lines,
        "",
        "--",
        `You get this because ${MAIL_SETTINGS[setting].label} are on in your settings. Turn them off with one click:`,
        pageLink(token),
      ].join("\n"),
      headers: { "List-Unsubscribe": `<${oneClickLink(token)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  }

  /** What the link names, for the page that asks before turning it off. */
  async function describe(token: string) {
    const { userId, setting } = readToken(token);
    const u = await db.selectFrom("users").select(["id", MAIL_SETTINGS[setting].column]).where("id", "=", userId).executeTakeFirst();
    if (!u) throw badRequest(UNSUBSCRIBE_INVALID);
    return { setting, label: MAIL_SETTINGS[setting].label, subscribed: (u as Record<string, unknown>)[MAIL_SETTINGS[setting].column] === 1 };
  }

  /** Turns the setting off for the user the token names; idempotent. */
  async function unsubscribe(token: string) {
    const { userId, setting } = readToken(token);
    const res = await db
      .updateTable("users")
      .set({ [MAIL_SETTINGS[setting].column]: 0, updated_at: nowSeconds() })
      .where("id", "=", userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw badRequest(UNSUBSCRIBE_INVALID);
    return { message: `You will no longer get ${MAIL_SETTINGS[setting].label} by e-mail. You can turn them back on in your settings.`, setting };
  }

  /** After a graded submission: the result by mail, when the user wants it. Never throws. */
  async function submissionGraded(userId: string, result: GradedSubmission) {
    try {
      const u = await db
        .selectFrom("users")
        .select(["id", "email", "username", "is_verified", "notify_solution_feedback"])
        .where("id", "=", userId)
        .executeTakeFirst();
      if (!u || u.is_verified !== 1 || u.notify_solution_feedback !== 1) return;
      const verdict = result.isCorrect ? "correct" : "not correct yet";
      const points = result.isCorrect
        ? result.alreadySolved
          ? "You had solved it before: no new points."
          : `You earned ${result.pointsAwarded} points.`
        : "Keep going: fix what is left and submit again.";
      await sendWithUnsubscribe(u, "solution_feedback", `Your solution to ${result.challengeTitle}: ${verdict}`, [
        `Hello ${u.username},`,
        "",
        `Your solution to "${result.challengeTitle}" was graded: ${verdict}.`,
        points,
        "",
        "Feedback from the check:",
        result.feedback,
      ]);
    } catch (e) {
      log?.error("notifications: solution feedback mail failed", e);
    }
  }

  /**
   * The digest of new challenges: to each verified user with the setting on, at most once every
   * DIGEST_EVERY_SECONDS, listing the approved, visible challenges first seen (catalogue
   * created_at) since their last digest (or since they joined). Returns how many mails went out.
   */
  async function sendDigests(now = nowSeconds()): Promise<number> {
    const users = await db
      .selectFrom("users")
      .leftJoin("notification_digests as d", "d.user_id", "users.id")
      .select(["users.id", "users.email", "users.username", "users.created_at", "d.last_sent_at"])
      .where("users.is_verified", "=", 1)
      .where("users.notify_new_challenges", "=", 1)
      .where((eb) => eb.or([eb("d.last_sent_at", "is", null), eb("d.last_sent_at", "<=", now - DIGEST_EVERY_SECONDS)]))
      .execute();
    if (!users.length) return 0;
    const since = Math.min(...users.map((u) => Number(u.last_sent_at ?? u.created_at)));
    const fresh = await db
      .selectFrom("challenges")
      .select(["id", "title", "difficulty", "points", "created_at"])
      .where("is_approved", "=", 1)
      .where("created_at", ">", since)
      .where("created_at", "<=", now)
      .where((eb) => eb("id", "not in", eb.selectFrom("hidden_challenges").select("challenge_id")))
      .orderBy("created_at", "asc")
      .execute();
    let sent = 0;
    for (const u of users) {
      const after = Number(u.last_sent_at ?? u.created_at);
      const list = fresh.filter((c) => Number(c.created_at) > after);
      if (!list.length) continue;
      // Claimed before sending: a second worker pass (or process) finds the day taken.
      const claimed = await claimDigest(u.id, u.last_sent_at === null ? null : Number(u.last_sent_at), now);
      if (!claimed) continue;
      try {
        await sendWithUnsubscribe(
          u,
          "new_challenges",
          list.length === 1 ? `New on faultline: ${list[0]!.title}` : `${list.length} new challenges on faultline`,
          [
            `Hello ${u.username},`,
            "",
            list.length === 1 ? "A new challenge was published:" : "New challenges were published:",
            "",
            ...list.map((c) => `- ${c.title} (${c.difficulty}, ${c.points} points): ${new URL(`/challenges/${c.id}`, publicUrl).toString()}`),
          ],
        );
        sent++;
      } catch (e) {
        log?.error(`notifications: digest mail to user ${u.id} failed`, e);
      }
    }
    if (sent) log?.info(`notifications: ${sent} new-challenge digest${sent === 1 ? "" : "s"} sent`);
    return sent;
  }

  /** Moves the user's last digest time from `previous` to `now`; false when someone else did. */
  async function claimDigest(userId: string, previous: number | null, now: number): Promise<boolean> {
    if (previous === null) {
      const res = await db
        .insertInto("notification_digests")
        .values({ user_id: userId, last_sent_at: now })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    const res = await db
      .updateTable("notification_digests")
      .set({ last_sent_at: now })
      .where("user_id", "=", userId)
      .where("last_sent_at", "=", previous)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  return { unsubscribeToken, describe, unsubscribe, submissionGraded, sendDigests };
}
export type Notifications = ReturnType<typeof createNotifications>;
