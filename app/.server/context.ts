// What the server hands the web for each request (platformContext) and what the web's
// middleware derives from it (webContext): the API client, the signed-in user, the session.
import { createContext, RouterContextProvider, type Session } from "react-router";
import type { Db } from "../../server/db/index.ts";
import type { ApiClient, Dispatch, OwnUser, TokenPair } from "./api-client.ts";

export interface PlatformDeps {
  dispatch: Dispatch;
  db: Db;
  publicUrl: URL;
  secureCookies: boolean;
  sessionSecret: string;
}

export const platformContext = createContext<PlatformDeps & { clientIp: string }>();

export interface SessionData {
  tokens?: { access_token: string; refresh_token: string; access_exp: number };
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
  signIn(tokens: TokenPair): void;
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
