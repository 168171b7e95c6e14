// Case-insensitive "contains" searches, the same on SQLite and PostgreSQL: the catalogue, the
// leaderboard and the admin console's user search all search this way.
import { type Expression, type SqlBool, sql } from "kysely";

/** `%text%` for LIKE with the user's own % and _ taken literally (escape character: \). */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** lower(column) LIKE pattern, case-insensitive on SQLite and PostgreSQL alike. */
export const ilike = (column: Expression<unknown>, text: string): Expression<SqlBool> => sql<SqlBool>`lower(${column}) like ${likePattern(text)} escape '\\'`;
