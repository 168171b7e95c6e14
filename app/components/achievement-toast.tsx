// Achievements a submission unlocked: a toast (icon, title, description, xp) that goes away
// after 5 s once JavaScript runs. Without JavaScript it stays on the page it was rendered in.
import { useEffect, useState } from "react";
import type { AchievementUnlocked } from "#shared/contract/index.ts";

export const ACHIEVEMENT_TOAST_MS = 5_000;

export function AchievementToast({ achievements }: { achievements: AchievementUnlocked[] }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    setVisible(true);
    const t = setTimeout(() => setVisible(false), ACHIEVEMENT_TOAST_MS);
    return () => clearTimeout(t);
  }, [achievements]);
  if (!visible || achievements.length === 0) return null;
  return (
    <div className="fixed right-4 bottom-4 z-50 w-[min(22rem,calc(100vw-2rem))] space-y-2" role="status" aria-live="polite" data-testid="achievement-toast">
      {achievements.map((a) => (
        <div key={a.title} className="flex items-start gap-3 rounded border border-purple-500 bg-white p-3 shadow-lg dark:border-term-purple dark:bg-zinc-950">
          <span className="text-2xl leading-none" aria-hidden="true">
            {a.icon}
          </span>
          <div className="min-w-0 flex-1">
            <p className="text-xs uppercase tracking-wide text-purple-700 dark:text-term-purple">achievement unlocked</p>
            <p className="font-bold">{a.title}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{a.description}</p>
          </div>
          <span className="shrink-0 text-sm font-bold text-purple-700 dark:text-term-purple">+{a.xp} xp</span>
        </div>
      ))}
    </div>
  );
}
