// The challenge catalogue: challenges/<slug>/challenge.yaml synchronised into the `challenges`
// table at start, so search, filters, ordering and joins with solves happen in the database.
// No HTTP here: callers pass plain values and get plain values or a DomainError.
import { type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { CategoryCount, ChallengeGrading, ChallengeView, ListQuery, Progress } from "#shared/contract/index.ts";
import { answerRules } from "./answers.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { ChallengesTable, Database } from "#server/db/schema.ts";
import type { Challenge } from "#server/library/challenges.ts";
import { isHidden, visibleTo } from "./admin/challenges.ts";
import { ilike } from "#server/db/search.ts";
import { notFound } from "./errors.ts";

export const DEFAULT_TIME_MINUTES = 30;
export const SHORT_DESCRIPTION_CHARS = 100;

/** The short description's fallback: the first 100 characters of the description plus an ellipsis. */
export function shortDescriptionOf(description: string): string {
  const d = description.trim();
  return d.length > SHORT_DESCRIPTION_CHARS ? `${d.slice(0, SHORT_DESCRIPTION_CHARS)}…` : d;
}

const jsonList = (text: string): string[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

const jsonCount = (text: string): number => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.length : 0;
  } catch {
    return 0;
  }
};

function gradingOf(json: string | null): ChallengeGrading {
  try {
    if (json) return JSON.parse(json) as ChallengeGrading;
  } catch {
    // Written by sync; a row from before it says nothing yet.
  }
  return { after_reboot: true, answer: null };
}

type Row = ChallengesTable & { is_approved: 0 | 1; votes: number; solves: number | string };

function view(r: Row): ChallengeView {
  return {
    uid: r.id,
    id: r.id,
    title: r.title,
    difficulty_level: r.difficulty,
    points: r.points,
    category: r.category,
    estimated_time_minutes: r.estimated_time_minutes ?? DEFAULT_TIME_MINUTES,
    description: r.description,
    short_description: r.short_description?.trim() || shortDescriptionOf(r.description),
    instructions: r.instructions,
    // Hint texts stay on the server until revealed (server/core/hints.ts): the catalogue says
    // only how many there are.
    hint_count: jsonCount(r.hints),
    tags: jsonList(r.tags),
    badge: r.badge,
    incident_note: r.incident_note,
    grading: gradingOf(r.grading),
    is_approved: r.is_approved === 1,
    votes: r.votes,
    solves: Number(r.solves),
    created_at: r.created_at,
  };
}

export interface CatalogueDeps {
  db: Db;
  /** What loadChallenges() found on disk. */
  challenges: Challenge[];
}

const difficultyRank = sql<number>`case c.difficulty when 'easy' then 1 when 'medium' then 2 when 'hard' then 3 else 4 end`;

/** The list's filters but the category: approval, not hidden, difficulty, search and, with a
 *  player, their progress (a solve of theirs decides "solved"). */
function filtered<O>(query: SelectQueryBuilder<Database & { c: ChallengesTable }, "c", O>, q: ListQuery, playerId: string | null) {
  let out = query
    .where("c.is_approved", "=", q.is_approved === false ? 0 : 1)
    // Hidden by an admin (server/core/admin/challenges.ts): not listed.
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("hidden_challenges as h").whereRef("h.challenge_id", "=", "c.id").select("h.challenge_id"))));
  if (q.difficulty) out = out.where("c.difficulty", "=", q.difficulty);
  const search = q.search?.trim();
  if (search) out = out.where((eb) => eb.or([ilike(eb.ref("c.title"), search), ilike(eb.ref("c.description"), search), ilike(eb.ref("c.tags"), search)]));
  if (q.progress && playerId) {
    out = out.where((eb) => {
      const solved = eb.exists(eb.selectFrom("solves as s").whereRef("s.challenge_id", "=", "c.id").where("s.user_id", "=", playerId).select("s.challenge_id"));
      return q.progress === "solved" ? solved : eb.not(solved);
    });
  }
  return out;
}

export function createCatalogue({ db, challenges }: CatalogueDeps) {
  function base() {
    return (
      db
        .selectFrom("challenges as c")
        .selectAll("c")
        // Kept by triggers as solves change (server/db/migrations/0008_scores.ts): one key lookup.
        .select((eb) =>
          eb.fn.coalesce(eb.selectFrom("challenge_solves as n").whereRef("n.challenge_id", "=", "c.id").select("n.solves"), eb.lit(0)).as("solves"),
        )
    );
  }

  return {
    /**
     * Upserts every challenge found on disk; a folder that vanished keeps its row (solves refer
     * to it) but is no longer approved, so it leaves the catalogue. `library`: what was read
     * from disk now (the admin console's reload), else what was found at start.
     */
    async sync(library: Challenge[] = challenges): Promise<{ upserted: number; retired: number }> {
      const now = nowSeconds();
      await db.transaction().execute(async (trx) => {
        for (const c of library) {
          const values = {
            title: c.title,
            category: c.category,
            difficulty: c.difficulty,
            points: c.points,
            estimated_time_minutes: c.estimatedTimeMinutes,
            short_description: c.shortDescription || null,
            description: c.description,
            instructions: c.instructions,
            hints: JSON.stringify(c.hints),
            tags: JSON.stringify(c.tags),
            badge: c.badge ?? null,
            incident_note: c.incidentNote ?? null,
            grading: JSON.stringify({ after_reboot: true, answer: answerRules(c.answer) } satisfies ChallengeGrading),
            is_approved: 1 as const,
            updated_at: now,
          };
          await trx
            .insertInto("challenges")
            .values({ id: c.id, ...values, created_at: now })
            .onConflict((oc) => oc.column("id").doUpdateSet(values))
            .execute();
        }
        const ids = library.map((c) => c.id);
        await trx
          .updateTable("challenges")
          .set({ is_approved: 0, updated_at: now })
          .where("is_approved", "=", 1)
          .$if(ids.length > 0, (q) => q.where("id", "not in", ids))
          .execute();
      });
      const retired = await db
        .selectFrom("challenges")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("is_approved", "=", 0)
        .executeTakeFirstOrThrow();
      return { upserted: library.length, retired: Number(retired.n) };
    },

    /**
     * One page of the catalogue (`q.page`, 1-based, `q.limit` a page, 100 by default).
     * `playerId`: whose progress `q.progress` filters by; ignored without `q.progress` (the
     * list is then the same for every caller, which the API's public cache relies on).
     */
    async list(q: ListQuery = {}, playerId: string | null = null): Promise<ChallengeView[]> {
      let query = filtered(base(), q, playerId);
      if (q.category) query = query.where(sql<SqlBool>`lower(c.category) = ${q.category.toLowerCase()}`);
      switch (q.order_by ?? "votes") {
        case "votes":
          query = query.orderBy("c.votes", "desc").orderBy(difficultyRank).orderBy("c.points");
          break;
        case "points":
          query = query.orderBy("c.points", "desc");
          break;
        case "title":
          query = query.orderBy(sql`lower(c.title)`);
          break;
        case "difficulty":
          query = query.orderBy(difficultyRank).orderBy("c.points");
          break;
        case "newest":
          query = query.orderBy("c.created_at", "desc");
          break;
        case "solves":
          query = query.orderBy(sql`solves`, "desc");
          break;
      }
      const limit = q.limit ?? 100;
      const rows = await query
        .orderBy("c.title")
        .orderBy("c.id")
        .limit(limit)
        .offset(((q.page ?? 1) - 1) * limit)
        .execute();
      return rows.map((r) => view(r as Row));
    },

    /** How many challenges each category holds under `q`'s other filters (its category aside),
     *  largest first; categories in lower case. The sum (or the asked category's count) is the
     *  list's total. `playerId` as for list(). */
    async categoryCounts(q: ListQuery = {}, playerId: string | null = null): Promise<CategoryCount[]> {
      const rows = await filtered(db.selectFrom("challenges as c"), q, playerId)
        .select([sql<string>`lower(c.category)`.as("category"), (eb) => eb.fn.countAll<number | string>().as("n")])
        .groupBy(sql`lower(c.category)`)
        .execute();
      return rows.map((r) => ({ category: r.category, count: Number(r.n) })).sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
    },

    /**
     * The player's progress on these challenges, in one query: solved (a row in solves),
     * attempted (a deployment of it or a submission, without a solve), else new. Reads only
     * `playerId`'s rows (each table's index on user_id).
     */
    async progressOf(playerId: string, challengeIds: readonly string[]): Promise<Map<string, Progress>> {
      const progress = new Map<string, Progress>();
      if (challengeIds.length === 0) return progress;
      const ids = [...new Set(challengeIds)];
      const rows = await db
        .selectFrom("solves")
        .select(["challenge_id", sql<number>`1`.as("solved")])
        .where("user_id", "=", playerId)
        .where("challenge_id", "in", ids)
        .unionAll(
          db
            .selectFrom("deployments")
            .select(["challenge_id", sql<number>`0`.as("solved")])
            .where("user_id", "=", playerId)
            .where("challenge_id", "in", ids),
        )
        .unionAll(
          db
            .selectFrom("submissions")
            .select(["challenge_id", sql<number>`0`.as("solved")])
            .where("user_id", "=", playerId)
            .where("challenge_id", "in", ids),
        )
        .execute();
      for (const r of rows)
        if (Number(r.solved) === 1 || !progress.has(r.challenge_id)) progress.set(r.challenge_id, Number(r.solved) === 1 ? "solved" : "attempted");
      for (const id of ids) if (!progress.has(id)) progress.set(id, "new");
      return progress;
    },

    /** One challenge by its uid, approved or retired (a retired one still has solves); 404 otherwise,
     *  and for one an admin hid, to anyone but an admin (the catalogue does not list it either). */
    async get(id: string, viewerId: string | null = null): Promise<ChallengeView> {
      const row = await base().where("c.id", "=", id).executeTakeFirst();
      if (!row) throw notFound("Challenge not found");
      if (!(viewerId ? await visibleTo(db, viewerId, id) : !(await isHidden(db, id)))) throw notFound("Challenge not found");
      return view(row as Row);
    },

    /** How many challenges the catalogue offers now. */
    async countApproved(): Promise<number> {
      const r = await db
        .selectFrom("challenges")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("is_approved", "=", 1)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
export type Catalogue = ReturnType<typeof createCatalogue>;
