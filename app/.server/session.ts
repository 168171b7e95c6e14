// The sign-in session: the cookie carries only a signed, random id; tokens stay in the
// database (web_sessions), so signing out or revoking really ends a session.
import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type SessionStorage } from "react-router";
import { nowSeconds } from "../../server/db/index.ts";
import type { PlatformDeps, SessionData } from "./context.ts";

export const SESSION_MAX_AGE = 30 * 24 * 3600;
const storages = new WeakMap<object, SessionStorage<SessionData>>();

export function sessionStorageFor(deps: PlatformDeps): SessionStorage<SessionData> {
  let storage = storages.get(deps.db);
  if (storage) return storage;
  const { db } = deps;
  const cookie = createCookie("__faultline", {
    httpOnly: true,
    sameSite: "lax",
    secure: deps.secureCookies,
    path: "/",
    secrets: [deps.sessionSecret],
    maxAge: SESSION_MAX_AGE,
  });
  const expiry = (expires?: Date) => (expires ? Math.floor(expires.getTime() / 1000) : nowSeconds() + SESSION_MAX_AGE);
  storage = createSessionStorage<SessionData>({
    cookie,
    async createData(data, expires) {
      const id = randomBytes(24).toString("base64url");
      // Sessions are created rarely (at sign-in), so that is when expired ones are swept.
      await db.deleteFrom("web_sessions").where("expires_at", "<=", nowSeconds()).execute();
      await db.insertInto("web_sessions").values({ id, data: JSON.stringify(data), expires_at: expiry(expires) }).execute();
      return id;
    },
    async readData(id) {
      const row = await db.selectFrom("web_sessions").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row || row.expires_at <= nowSeconds()) return null;
      return JSON.parse(row.data);
    },
    async updateData(id, data, expires) {
      await db
        .updateTable("web_sessions")
        .set({ data: JSON.stringify(data), expires_at: expiry(expires) })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id) {
      await db.deleteFrom("web_sessions").where("id", "=", id).execute();
    },
  });
  storages.set(deps.db, storage);
  return storage;
}
