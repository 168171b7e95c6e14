import { Link } from "./link.tsx";

export const SUPPORT_EMAIL = "support@faultline.dev";

const COLUMNS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: "platform",
    links: [
      { to: "/challenges", label: "challenges" },
      { to: "/leaderboard", label: "leaderboard" },
      { to: "/pricing", label: "pricing" },
      { to: "/faq", label: "faq" },
    ],
  },
  {
    title: "resources",
    links: [
      { to: "/docs", label: "docs" },
      { to: "/discord", label: "discord" },
      { to: "/status", label: "status" },
    ],
  },
  {
    title: "legal",
    links: [
      { to: "/privacy", label: "privacy" },
      { to: "/terms", label: "terms" },
      { to: "/security", label: "security" },
      { to: "/cookies", label: "cookies" },
    ],
  },
];

export function Footer() {
  return (
    <footer className="border-t border-zinc-300 text-sm dark:border-zinc-800">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:grid-cols-4">
        <div>
          <p className="font-bold">
            <span className="text-emerald-600 dark:text-term-green">~/</span>faultline
          </p>
          <p className="mt-2 text-zinc-500">Break it. ssh in. Fix it.</p>
          <a className="mt-2 inline-block" href={`mailto:${SUPPORT_EMAIL}`}>
            {SUPPORT_EMAIL}
          </a>
        </div>
        {COLUMNS.map((c) => (
          <div key={c.title}>
            <p className="prompt font-semibold">ls {c.title}/</p>
            <ul className="mt-2 space-y-1">
              {c.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to}>{l.label}</Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="pb-6 text-center text-xs text-zinc-500">© {new Date().getFullYear()} faultline. exit 0</p>
    </footer>
  );
}
