// Security tab: which OAuth providers are linked to the account.
import type { SignedInUser } from "#shared/contract/index.ts";
import { type Provider, providerLabel } from "#app/lib/providers.ts";
import { Section } from "./shared.tsx";

const PROVIDERS: Provider[] = ["github", "google"];

export function ConnectedAccounts({ user }: { user: SignedInUser }) {
  return (
    <Section command="ls ~/.connected" title="Connected Accounts" testId="connected-accounts">
      <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        {PROVIDERS.map((p) => {
          const connected = user.connected_accounts.includes(p);
          return (
            <li key={p} className="flex items-center justify-between gap-4 py-2" data-testid={`connected-${p}`}>
              <span className="font-semibold">{providerLabel(p)}</span>
              <span className={connected ? "text-emerald-700 dark:text-term-green" : "text-zinc-500"}>{connected ? "Connected" : "Not connected"}</span>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
