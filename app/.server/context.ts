// What the server hands the web for each request (platformContext) and what the web's
// middleware derives from it (webContext): the API client, the signed-in user, the session.
import { type Cookie, createContext, RouterContextProvider, type Session } from "react-router";
import type { SignedInUser, TokenPair } from "#shared/contract/index.ts";
import type { ApiClient, Dispatch } from "./api-client.ts";

/** Who a stored session signs in (null: only pre-login state) and when it ends (epoch seconds). */
type SessionOwner = { userId: string | null; expiresAt?: number };

/**
 * What the web needs of the sign-in session store. The web declares it (it imports nothing from
 * server/); the server's web-sessions service (server/core/auth/web-sessions.ts) satisfies it and
 * server.ts hands that instance over through the load context.
 */
export interface WebSessionStore {
  /** The signed cookie that carries a session's random id. */
  readonly cookie: Cookie;
  /** The live session an id names, or null (unknown, expired, or not readable). */
  read(id: string): Promise<{ data: Record<string, unknown> } | null>;
  /** A new session; returns its id. */
  create(data: Record<string, unknown>, owner: SessionOwner): Promise<string>;
  update(id: string, data: Record<string, unknown>, owner: SessionOwner): Promise<unknown>;
  destroy(id: string): Promise<unknown>;
  /** Ends `oldId` and stores the data under a new id, which it returns. */
  rotate(oldId: string | null, data: Record<string, unknown>, owner: SessionOwner): Promise<string>;
}

export interface PlatformDeps {
  dispatch: Dispatch;
  /** The sign-in sessions: the web holds no database handle. */
  webSessions: WebSessionStore;
  publicUrl: URL;
  secureCookies: boolean;
  /** The community's invite URL (DISCORD_URL), shown on /discord; none: the page says so. */
  discordUrl?: string;
}

export const platformContext = createContext<PlatformDeps & { clientIp: string }>();

export interface SessionData {
  /** `user_id` is the access token's subject: the session service indexes sessions by it. */
  tokens?: { access_token: string; refresh_token: string; access_exp: number; user_id: string };
  /** A login waiting for its second factor. */
  mfa?: { token: string; expires: number; redirectTo?: string };
  /** OAuth state issued at start, checked at the callback, removed after use. */
  oauth?: { provider: string; state: string; redirectTo?: string };
  /** The last OAuth callback handled: a reload of that page does not process the code again. */
  oauthDone?: { state: string; ok: boolean; message?: string };
  registeredEmail?: string;
  /** A one-time message for the next page (for example a failed OAuth start). */
  flash?: string;
  theme?: "dark" | "light";
  /** 2FA set-up started on /profile/settings and not verified yet (survives form posts without JS). */
  totpSetup?: { secret: string; qr: string };
}

export interface Web {
  api: ApiClient;
  /** The signed-in account, without statistics (pages that show them ask GET /users/me). */
  user: SignedInUser | null;
  /** The access token for calls made on the user's behalf. */
  token?: string;
  session: Session<SessionData>;
  /** Signs in under a new session id (the old one ends: no fixation). */
  signIn(tokens: TokenPair): void;
  /** Signs out: the session id ends (and the live sockets opened under it close). */
  signOut(): void;
  /** Marks the session changed so the middleware saves it. */
  touch(): void;
}

export const webContext = createContext<Web>();

/** Called by server.ts through the server build, so both sides share one context key. */
export function createLoadContext(deps: PlatformDeps, clientIp: string) {
  const c = new RouterContextProvider();
  c.set(platformContext, { ...deps, clientIp });
  return c;
}
