import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { activeDeploymentFor } from "./.server/active-deployment.ts";
import { getWeb } from "./.server/guards.ts";
import { webMiddleware } from "./.server/web.ts";
import "./app.css";
import { EasterEgg } from "./components/easter-egg.tsx";
import { Footer } from "./components/footer.tsx";
import { GlobalBanner } from "./components/global-banner.tsx";
import { NavBar } from "./components/nav-bar.tsx";
import { NotFound } from "./components/not-found.tsx";
import { useLinkNavigation } from "./hooks/use-link-navigation.ts";

export const middleware: Route.MiddlewareFunction[] = [webMiddleware];

export const meta: Route.MetaFunction = () => [
  { title: "faultline: fix broken systems, for practice" },
  { name: "description", content: "Hands-on troubleshooting challenges: start a broken server, ssh in, fix it, get graded." },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const web = getWeb(context);
  const user = web.user;
  // The global banner's active deployment (signed-in users only).
  const activeDeployment = await activeDeploymentFor(web, request);
  // Maintenance mode (admin console): a line on every page while new deployments are paused.
  const notice = await web.api.getSystemNotice();
  const maintenance = notice.ok && notice.data.maintenance ? notice.data.message : null;
  return data({
    activeDeployment,
    maintenance,
    user: user && {
      username: user.username,
      is_admin: user.is_admin,
      is_verified: user.is_verified,
    },
    theme: user?.theme ?? web.session.get("theme") ?? "dark",
  });
}

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const theme = root?.theme ?? "dark";
  // In-app links (components/link.tsx) navigate without a page load once scripts run.
  useLinkNavigation();
  return (
    <html lang="en" className={theme === "dark" ? "dark" : ""} style={{ colorScheme: theme }}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <NavBar user={root?.user ?? null} theme={theme} />
        <GlobalBanner deployment={root?.activeDeployment ?? null} maintenance={root?.maintenance ?? null} />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
        <Footer />
        <EasterEgg />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound path={location.pathname} />;
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "An unexpected error occurred";
  return (
    <section className="panel mx-auto max-w-2xl">
      <h1 className="prompt text-xl font-bold">error</h1>
      <p className="mt-3 text-sm">{message}</p>
      <a className="btn-ghost mt-4" href="/">
        cd ~
      </a>
    </section>
  );
}
