// A trigram index on usernames, so a leaderboard search (a case-insensitive substring of the
// username) finds its players without walking the whole board (without it, a search of the
// all-time board at 100,000 players filtered ~95,000 index rows, 13 ms of CPU, the only board read
// that grew with the players). server/core/scoring.ts takes the matching players from here and
// joins them to the period's bucket by its primary key.
//
// SQLite: an FTS5 table with the trigram tokenizer (case-insensitive by default; SQLite has it
// from 3.34) over `user_name_keys`, a plain table of (integer id, user id, lower(username)).
// The integer id is there because FTS5 addresses its rows by an integer rowid, and the rowid of
// `users` (a text primary key) may be renumbered by VACUUM, which would silently misdirect an
// index built on it; an INTEGER PRIMARY KEY is never renumbered. Triggers keep both: users →
// user_name_keys → the FTS index (the external-content pattern of the FTS5 manual), in the
// transaction that changed the user, like the score triggers of 0008.
//
// PostgreSQL: the pg_trgm extension (in contrib, trusted since PostgreSQL 13, so a database
// owner may create it) and a GIN index on lower(username), which serves `like '%…%'` directly.
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

export const nameTrigrams0014: Migration = {
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index users_username_trgm on users using gin (lower(username) gin_trgm_ops)`.execute(db);
      return;
    }
    await sql`create table user_name_keys (id integer primary key, user_id text not null unique, name_key text not null)`.execute(db);
    await sql`create virtual table user_name_trigrams using fts5(name_key, content='user_name_keys', content_rowid='id', tokenize='trigram')`.execute(db);
    const steps: [string, string][] = [
      ["user_name_keys_insert", `after insert on user_name_keys begin insert into user_name_trigrams (rowid, name_key) values (new.id, new.name_key); end`],
      [
        "user_name_keys_delete",
        `after delete on user_name_keys begin insert into user_name_trigrams (user_name_trigrams, rowid, name_key) values ('delete', old.id, old.name_key); end`,
      ],
      [
        "user_name_keys_update",
        `after update of name_key on user_name_keys begin
          insert into user_name_trigrams (user_name_trigrams, rowid, name_key) values ('delete', old.id, old.name_key);
          insert into user_name_trigrams (rowid, name_key) values (new.id, new.name_key); end`,
      ],
      ["user_names_insert", `after insert on users begin insert into user_name_keys (user_id, name_key) values (new.id, lower(new.username)); end`],
      ["user_names_delete", `after delete on users begin delete from user_name_keys where user_id = old.id; end`],
      ["user_names_update", `after update of username on users begin update user_name_keys set name_key = lower(new.username) where user_id = new.id; end`],
    ];
    for (const [name, body] of steps) await sql.raw(`create trigger ${name} ${body}`).execute(db);
    // Existing players (the insert trigger fills the FTS index row by row).
    await sql`insert into user_name_keys (user_id, name_key) select id, lower(username) from users`.execute(db);
  },
};
