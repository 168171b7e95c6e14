// The challenge catalogue: challenges/<slug>/challenge.yaml synchronised into the `challenges`
// table at start, so search, filters, ordering and joins with solves happen in the database.
// No HTTP here: callers pass plain values and get plain values or a DomainError.
import { type SqlBool, sql } from "kysely";
import type { ChallengeGrading, ChallengeView, ListQuery } from "#shared/contract/index.ts";
import { answerRules } from "./answers.ts";
import type { Db } from "#server/db/index.ts";
import { nowSeconds } from "#server/db/index.ts";
import type { ChallengesTable } from "#server/db/schema.ts";
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

    async list(q: ListQuery = {}): Promise<ChallengeView[]> {
      const difficultyRank = sql<number>`case c.difficulty when 'easy' then 1 when 'medium' then 2 when 'hard' then 3 else 4 end`;
      let query = base()
        .where("c.is_approved", "=", q.is_approved === false ? 0 : 1)
        // Hidden by an admin (server/core/admin/challenges.ts): not listed.
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("hidden_challenges as h").whereRef("h.challenge_id", "=", "c.id").select("h.challenge_id"))),
        );
      if (q.category) query = query.where(sql<SqlBool>`lower(c.category) = ${q.category.toLowerCase()}`);
      if (q.difficulty) query = query.where("c.difficulty", "=", q.difficulty);
      const search = q.search?.trim();
      if (search) {
        query = query.where((eb) => eb.or([ilike(eb.ref("c.title"), search), ilike(eb.ref("c.description"), search), ilike(eb.ref("c.tags"), search)]));
      }
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
      }
      const rows = await query
        .orderBy("c.title")
        .orderBy("c.id")
        .limit(q.limit ?? 100)
        .execute();
      return rows.map((r) => view(r as Row));
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
