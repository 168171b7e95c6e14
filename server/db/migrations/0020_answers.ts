// Written answers judged by the platform (server/core/answers.ts, decision 008): each graded
// submission keeps what the platform made of its answer ("right", "wrong", "ambiguous": it named
// more than one candidate; null: the challenge asks no question), so the wrong answers since a
// deployment's last reset can be counted, by an index on the deployment. The catalogue keeps how
// a challenge is graded (JSON: what the answer must name, how many wrong answers a deployment
// takes), shown before a player starts.
import type { Kysely, Migration } from "kysely";

export const answers0020: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable("submissions").addColumn("answer_verdict", "text").execute();
    await db.schema.createIndex("submissions_deployment").on("submissions").columns(["deployment_id", "created_at"]).execute();
    await db.schema.alterTable("challenges").addColumn("grading", "text").execute();
  },
};
