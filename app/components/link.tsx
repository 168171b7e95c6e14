// The app's in-app link: a plain <a> with the route's href, navigated in the browser by the one
// document-wide click handler (hooks/use-link-navigation.ts). React Router's <Link> runs about
// ten hooks per link on every server render (href resolution against the matched routes, click
// and prefetch handlers): with 43 links on `/` that was ~0.5 ms of a ~4 ms render (a CPU
// profile of `/`; decision 014). The markup is what <Link> renders: `data-discover` lets React
// Router's lazy route discovery find the target routes ahead of a click, as it does for its own.
import type { AnchorHTMLAttributes } from "react";
import { Link as RouterLink } from "react-router";

/** Marks the anchors the click handler navigates in the browser (no full page load). */
export const APP_LINK_ATTRIBUTE = "data-app-link";

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** An absolute path inside the app, with any query or hash. */
  to: string;
  /** "intent": fetch the target's data and modules on hover or focus, through React Router's <Link>. */
  prefetch?: "intent";
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Keep the scroll position (tabs within a page). */
  preventScrollReset?: boolean;
};

export function Link({ to, prefetch, replace, preventScrollReset, ...rest }: LinkProps) {
  if (prefetch) return <RouterLink to={to} prefetch={prefetch} replace={replace} preventScrollReset={preventScrollReset} {...rest} />;
  return (
    <a
      {...rest}
      href={to}
      data-discover="true"
      data-replace={replace ? "" : undefined}
      data-keep-scroll={preventScrollReset ? "" : undefined}
      {...{ [APP_LINK_ATTRIBUTE]: "" }}
    />
  );
}

/** aria-current for a navigation entry: the page at `to`, or one below it (as <NavLink>). */
export function isCurrent(pathname: string, to: string): boolean {
  const here = pathname.toLowerCase();
  const there = to.length > 1 && to.endsWith("/") ? to.slice(0, -1).toLowerCase() : to.toLowerCase();
  return here === there || (there !== "/" && here.startsWith(`${there}/`));
}
