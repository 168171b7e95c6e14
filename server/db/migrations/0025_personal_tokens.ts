// Personal API tokens (docs/decisions/020-personal-api-tokens.md): made and revoked by their owner
// in settings, taken by /api/v1 as `Authorization: Bearer flt_...`.
//
//   personal_tokens   one row per token: its owner, name and scope (read | play), the SHA-256 of
//                     the token (hex; the token is 32 random bytes, so no salt or stretching),
//                     when it was made, when it expires (null: never) and when it was last used
//                     (written at most once a minute). Revoking deletes the row; the tokens go
//                     with their user.
import type { Kysely, Migration } from "kysely";

export const personalTokens0025: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("personal_tokens")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("scope", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint")
      .addColumn("last_used_at", "bigint")
      .execute();
    await db.schema.createIndex("personal_tokens_user").on("personal_tokens").columns(["user_id", "created_at"]).execute();
  },
};
