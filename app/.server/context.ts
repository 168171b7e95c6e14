// What the server hands the web for each request (platformContext) and what the web's
// middleware derives from it (webContext): the API client, the signed-in user, the session.
import { createContext, RouterContextProvider, type Session } from "react-router";
import type { WebSessions } from "../../server/core/web-sessions.ts";
import type { ApiClient, Dispatch, OwnUser, TokenPair } from "./api-client.ts";

export interface PlatformDeps {
  dispatch: Dispatch;
  /** The sign-in sessions (server/core/web-sessions.ts): the web holds no database handle. */
  webSessions: WebSessions;
  publicUrl: URL;
  secureCookies: boolean;
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
  user: OwnUser | null;
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
