// Operator commands: `npm run admin -- grant <username>` / `revoke <username>`.
// Uses the same configuration (DATA_DIR, DATABASE_URL) as the server.
import { ConfigError, loadConfig } from "./config.ts";
import { DomainError, type ErrorKind } from "./core/errors.ts";
import { createPlatform } from "./platform.ts";

const USAGE = `usage: npm run admin -- <grant|revoke> <username>
  grant   make the user an administrator (can open /admin)
  revoke  take administrator rights away`;

// How the command ends on a domain error (server/core/errors.ts): its words on stderr and exit
// status 1, or 2 (as for a usage error) when what was typed is wrong.
const EXIT_STATUS: Partial<Record<ErrorKind, number>> = { invalid: 2 };

const [command, username] = process.argv.slice(2);
if (!command || !username || !["grant", "revoke"].includes(command)) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const platform = await createPlatform({ ...loadConfig(), logLevel: "warn" });
  try {
    await platform.accounts.setAdmin(username, command === "grant");
    console.log(`${username} is ${command === "grant" ? "now" : "no longer"} an administrator.`);
  } finally {
    await platform.close();
  }
} catch (e) {
  if (e instanceof DomainError) {
    console.error(e.detail);
    process.exit(EXIT_STATUS[e.kind] ?? 1);
  }
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
