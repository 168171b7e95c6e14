// Wires the platform from its configuration: database, domain services, API. The composition
// root for everything but the transports, so tests can build the same platform server.ts runs.
import type { Config } from "./config.ts";
import { createApi } from "./api/index.ts";
import { createAccounts } from "./core/accounts.ts";
import { createOAuth } from "./core/oauth.ts";
import { createRateLimiter } from "./core/ratelimit.ts";
import { createTokenService } from "./core/tokens.ts";
import { openDatabase } from "./db/index.ts";
import { createLogger } from "./logger.ts";
import { createMailer } from "./mail/mailer.ts";

export async function createPlatform(config: Config) {
  const log = createLogger(config.logLevel);
  const db = await openDatabase(config.database);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log });
  const limiter = createRateLimiter();
  const tokens = createTokenService(db, config.sessionSecret);
  const accounts = createAccounts({ db, tokens, mailer, limiter, publicUrl: config.publicUrl });
  const oauth = createOAuth({ db, tokens, accounts, providers: config.oauth, publicUrl: config.publicUrl });
  const api = createApi({ accounts, oauth, tokens, log });
  return {
    config,
    log,
    db,
    api,
    accounts,
    async close() {
      await db.destroy();
    },
  };
}
export type Platform = Awaited<ReturnType<typeof createPlatform>>;
