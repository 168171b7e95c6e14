// The footer's information pages.
import { data } from "react-router";
import type { Route } from "./+types/info-page";
import { getWeb } from "../.server/guards.ts";
import { SUPPORT_EMAIL } from "../components/footer.tsx";

const PAGES: Record<string, { title: string; body: string[] }> = {
  docs: { title: "docs", body: ["How faultline works: pick a challenge, start it, connect with ssh using the key from your settings, fix the fault, submit a short explanation.", "Sessions last 30 minutes and can be extended 30 minutes at a time."] },
  discord: { title: "discord", body: ["The community server is being set up. Until then, write to us by e-mail."] },
  status: { title: "status", body: ["All systems operational."] },
  privacy: { title: "privacy", body: ["We keep what is needed to run your account: username, e-mail, a hash of your password, your SSH public key and your results. We do not sell data.", "Environments are removed when a session ends."] },
  terms: { title: "terms", body: ["Use faultline to learn. Do not attack the platform, other users or anything outside your own environment."] },
  security: { title: "security", body: [`Found a vulnerability? Please write to ${SUPPORT_EMAIL}. We answer every report.`] },
  cookies: { title: "cookies", body: ["One cookie keeps you signed in (HttpOnly, SameSite=Lax). No tracking cookies."] },
};

/** The page of that name; own entries only (`/constructor` or `/__proto__` are not pages). */
export function pageFor(name: string): { title: string; body: string[] } | undefined {
  return Object.hasOwn(PAGES, name) ? PAGES[name] : undefined;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const page = pageFor(params.page);
  if (!page) throw data(null, { status: 404 });
  // /docs also shows the SSH gateway's host key, to check the first connection against.
  if (params.page !== "docs") return { ...page, hostKey: null };
  const res = await getWeb(context).api.sshHostKey();
  return { ...page, hostKey: res.ok ? { fingerprint: res.data.host_key_fingerprint, knownHosts: res.data.known_hosts } : null };
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.title ?? "faultline"} | faultline` }];

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="panel mx-auto max-w-3xl">
      <h1 className="prompt text-2xl font-bold">cat {loaderData.title}.txt</h1>
      {loaderData.body.map((p) => (
        <p key={p} className="mt-4">
          {p}
        </p>
      ))}
      {loaderData.hostKey ? (
        <div className="mt-6 space-y-2" data-testid="docs-host-key">
          <h2 className="font-bold">The SSH server&apos;s key</h2>
          <p>
            The first time you connect, ssh asks whether to trust the server&apos;s key. Go on only if the fingerprint it shows
            is <code data-testid="ssh-host-key">{loaderData.hostKey.fingerprint}</code>. Or add this line to{" "}
            <code>~/.ssh/known_hosts</code> beforehand:
          </p>
          <code className="block select-all break-all rounded bg-zinc-100 px-3 py-2 text-xs dark:bg-zinc-900" data-testid="ssh-known-hosts">
            {loaderData.hostKey.knownHosts}
          </code>
        </div>
      ) : null}
    </section>
  );
}
