// The footer's information pages.
import { data } from "react-router";
import type { Route } from "./+types/info-page";
import { platformContext } from "#app/.server/context.ts";
import { SUPPORT_EMAIL } from "#app/components/footer.tsx";

const PAGES: Record<string, { title: string; body: string[] }> = {
  // /discord is honest: the configured invite (DISCORD_URL) as a link, or that there is none yet.
  discord: { title: "discord", body: [] },
  privacy: {
    title: "privacy",
    body: [
      "We keep what is needed to run your account: username, e-mail, a hash of your password, your SSH public key and your results. We do not sell data.",
      "Environments are removed when a session ends.",
      "Every shell in your environments, over ssh or in the browser, is recorded (what you typed and what it printed) so you can replay it; recordings are private unless you publish one, and are deleted after 90 days (published ones when you unpublish them) or with your account.",
    ],
  },
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
  if (params.page !== "discord") return { ...page, discord: null };
  return { ...page, discord: { url: context.get(platformContext).discordUrl ?? null } };
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
      {loaderData.discord?.url ? (
        <p className="mt-4" data-testid="discord-invite">
          Join the faultline community on Discord:{" "}
          <a href={loaderData.discord.url} rel="noopener noreferrer">
            {loaderData.discord.url}
          </a>
        </p>
      ) : loaderData.discord ? (
        <p className="mt-4" data-testid="discord-none">
          There is no faultline Discord server yet. Until there is, write to us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      ) : null}
    </section>
  );
}
