import { Form, useLocation } from "react-router";
import { isCurrent, Link } from "./link.tsx";
import { PricingDialog, PricingLink } from "./pricing/pricing-dialog.tsx";

const LINKS = [
  { to: "/challenges", label: "challenges/" },
  { to: "/leaderboard", label: "leaderboard/" },
  { to: "/submit_challenge", label: "submit_challenge/" },
];

type NavUser = { username: string; is_admin: boolean } | null;

/** A nav entry: marked current (aria-current, colour) on its page and the pages below it. */
function NavItem({ to, children, pathname, ...rest }: { to: string; children: React.ReactNode; pathname: string; "data-testid"?: string }) {
  const current = isCurrent(pathname, to);
  return (
    <Link
      to={to}
      aria-current={current ? "page" : undefined}
      className={`no-underline hover:underline ${current ? "text-emerald-600 dark:text-term-green" : "text-zinc-700 dark:text-zinc-300"}`}
      {...rest}
    >
      {children}
    </Link>
  );
}

function Items({ user, theme }: { user: NavUser; theme: "dark" | "light" }) {
  const { pathname } = useLocation();
  return (
    <>
      {LINKS.map((l) => (
        <NavItem key={l.to} to={l.to} pathname={pathname}>
          {l.label}
        </NavItem>
      ))}
      <PricingLink className="btn-ghost px-3 py-1" />
      <Form method="post" action="/theme" className="inline">
        <input type="hidden" name="theme" value={theme === "dark" ? "light" : "dark"} />
        <button type="submit" className="text-xs text-zinc-500 hover:underline" title="Switch theme">
          [{theme === "dark" ? "light" : "dark"}]
        </button>
      </Form>
      {user ? (
        <>
          {user.is_admin && (
            <NavItem to="/admin" pathname={pathname}>
              admin/
            </NavItem>
          )}
          <NavItem to="/profile" pathname={pathname} data-testid="nav-username">
            ~{user.username}
          </NavItem>
          <Form method="post" action="/logout" className="inline">
            <button type="submit" className="text-sm text-zinc-700 hover:underline dark:text-zinc-300">
              logout
            </button>
          </Form>
        </>
      ) : (
        <NavItem to="/login" pathname={pathname}>
          login.sh
        </NavItem>
      )}
    </>
  );
}

export function NavBar({ user, theme }: { user: NavUser; theme: "dark" | "light" }) {
  return (
    <header className="border-b border-zinc-300 bg-white/90 dark:border-zinc-800 dark:bg-zinc-950/90">
      <nav className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3" aria-label="Main">
        <Link to="/" className="text-lg font-bold text-zinc-900 no-underline dark:text-zinc-100">
          <span className="text-emerald-600 dark:text-term-green">~/</span>faultline<span className="animate-pulse">_</span>
        </Link>
        <div className="hidden items-center gap-5 text-sm md:flex">
          <Items user={user} theme={theme} />
        </div>
        {/* A <details> menu: collapsible on small screens with or without JavaScript. */}
        <details className="relative md:hidden">
          <summary className="btn-ghost cursor-pointer list-none px-3 py-1" aria-label="Menu">
            ☰ menu
          </summary>
          <div className="absolute right-0 z-20 mt-2 flex w-56 flex-col gap-3 rounded border border-zinc-300 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-950">
            <Items user={user} theme={theme} />
          </div>
        </details>
      </nav>
      <PricingDialog />
    </header>
  );
}
