// On every page while the user has an active deployment: a link to its challenge, a status
// dot, the countdown, and a dismiss button (remembered for that deployment in a cookie).
// Without JavaScript dismissing is a plain form post; with it, a fetcher (no reload).
import { useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { Link } from "./link.tsx";
import { useCountdown } from "#app/hooks/use-countdown.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { isDeploymentStatus } from "#shared/contract/deployments.ts";
// Straight from their modules, not the feature's index: the index brings the challenge page's
// components (and their forms) into every page's bundle.
import { StatusDot } from "#app/features/challenge/components/badges.tsx";
import { Countdown } from "#app/features/challenge/components/countdown.tsx";
import { STATUS_LABELS } from "#app/features/challenge/rules/status.ts";

export interface BannerDeployment {
  deployment_id: string;
  challenge_id: string;
  challenge_title: string;
  status: string;
  expires_at: string | null;
  dismissed: boolean;
}

/** The banner, with the maintenance notice above it while an admin has maintenance mode on. */
export function GlobalBanner({ deployment, maintenance = null }: { deployment: BannerDeployment | null; maintenance?: string | null }) {
  return (
    <>
      {maintenance ? (
        <div
          className="border-b border-yellow-500 bg-yellow-50 text-sm text-yellow-900 dark:bg-yellow-950/40 dark:text-yellow-200"
          role="status"
          data-testid="maintenance-banner"
        >
          <p className="mx-auto max-w-6xl px-4 py-2">{maintenance}</p>
        </div>
      ) : null}
      <DeploymentBanner deployment={deployment} />
    </>
  );
}

function DeploymentBanner({ deployment }: { deployment: BannerDeployment | null }) {
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher({ key: "banner-dismiss" });
  const [hiddenFor, setHiddenFor] = useState<string | null>(null);
  const seconds = useCountdown(deployment?.expires_at ?? null);
  if (!deployment || deployment.dismissed || hiddenFor === deployment.deployment_id) return null;
  const href = `/challenges/${encodeURIComponent(deployment.challenge_id)}`;
  // The challenge's own page shows all of this already.
  if (location.pathname === href) return null;
  const status = isDeploymentStatus(deployment.status) ? deployment.status : "queued";
  return (
    <div
      className="border-b border-emerald-600/40 bg-emerald-50 text-sm dark:border-term-green/30 dark:bg-emerald-950/30"
      role="region"
      aria-label="Active challenge"
      data-testid="global-banner"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
        <span className="inline-flex items-center gap-2" data-testid="global-banner-status" data-status={status}>
          <StatusDot status={status} />
          <span className="text-zinc-600 dark:text-zinc-400">{STATUS_LABELS[status]}</span>
        </span>
        <Link to={href} className="min-w-0 truncate font-semibold">
          {deployment.challenge_title}
        </Link>
        {deployment.expires_at ? <Countdown expiresAt={deployment.expires_at} seconds={seconds} testId="global-banner-countdown" /> : null}
        <fetcher.Form method="post" action="/banner/dismiss" className="ml-auto" onSubmit={() => setHiddenFor(deployment.deployment_id)}>
          <input type="hidden" name="deployment_id" value={deployment.deployment_id} />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <button type="submit" className="text-xs text-zinc-500 hover:underline" aria-label="Dismiss the active challenge banner">
            [x] dismiss
          </button>
        </fetcher.Form>
      </div>
    </div>
  );
}
