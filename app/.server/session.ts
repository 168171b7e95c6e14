// The sign-in session as the web uses it: React Router's Session object over the session store
// (WebSessionStore in context.ts; the server's web-sessions service), reached through the load
// context. The cookie carries
// only a signed, random id; the service keeps the id's hash and the data encrypted.
//
// Unlike React Router's createSessionStorage, an id the database does not know is never reused
// (it could be one somebody planted): such a request starts a session of its own. And every
// change of who is signed in writes under a new id (`rotate`).
import { createSession, type Session } from "react-router";
import type { SessionData, WebSessionStore } from "./context.ts";

/** Who a session signs in: the access token's subject, kept next to the tokens. */
const userOf = (data: Partial<SessionData>) => data.tokens?.user_id || null;

export function sessionStoreFor(service: WebSessionStore) {
  const { cookie } = service;
  return {
    async getSession(cookieHeader: string | null): Promise<Session<SessionData>> {
      const id: unknown = cookieHeader ? await cookie.parse(cookieHeader).catch(() => null) : null;
      const stored = typeof id === "string" && id ? await service.read(id) : null;
      return stored ? createSession<SessionData>(stored.data as Partial<SessionData>, id as string) : createSession<SessionData>({}, "");
    },

    /** Saves the session under its id (a new one when it has none); returns the Set-Cookie. */
    async commit(session: Session<SessionData>): Promise<string> {
      const data = session.data;
      let id = session.id;
      if (id) await service.update(id, data, { userId: userOf(data) });
      else id = await service.create(data, { userId: userOf(data) });
      return cookie.serialize(id);
    },

    /** Ends the current id and saves the data under a new one; returns the Set-Cookie. */
    async rotate(session: Session<SessionData>): Promise<string> {
      const data = session.data;
      return cookie.serialize(await service.rotate(session.id || null, data, { userId: userOf(data) }));
    },

    /** Deletes the session and expires the cookie. */
    async destroy(session: Session<SessionData>): Promise<string> {
      if (session.id) await service.destroy(session.id);
      return cookie.serialize("", { maxAge: undefined, expires: new Date(0) });
    },
  };
}
