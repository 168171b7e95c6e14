// The three settings tabs: plain links to ?tab=..., so they work without JavaScript.
import { Link } from "#app/components/link.tsx";
import type { Tab } from "./shared.tsx";

const LABELS: Record<Tab, string> = { profile: "Profile", security: "Security", notifications: "Notifications" };

export function SettingsTabs({ current }: { current: Tab }) {
  return (
    <nav aria-label="Settings" className="flex gap-1 overflow-x-auto border-b border-zinc-300 dark:border-zinc-800">
      {(Object.keys(LABELS) as Tab[]).map((tab) => {
        const active = tab === current;
        return (
          <Link
            key={tab}
            to={`?tab=${tab}`}
            aria-current={active ? "page" : undefined}
            data-testid={`tab-${tab}`}
            className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm no-underline ${
              active
                ? "border-emerald-600 font-bold text-emerald-700 dark:border-term-green dark:text-term-green"
                : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            }`}
          >
            {LABELS[tab]}
          </Link>
        );
      })}
    </nav>
  );
}
