// The challenge page's live view of its deployment: starts from the loader's snapshot, opens
// the WebSocket (websocket_url; the browser sends the sign-in cookie and the page's Origin,
// which is all the channel accepts from a browser), applies every message through the reducer,
// reconnects with backoff after an unclean close and then polls the web's own status route
// (challenges/:id/status) every 5 s. A clean close or termination stops it. All the policy
// lives in createLiveController (app/features/challenge/rules/live-controller.ts); this hook
// only supplies the browser's WebSocket and fetch. It imports the rules modules directly, not
// the feature's index, whose components import this hook.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { ChallengeDeployment } from "#shared/contract/deployments.ts";
import { createLiveController, type LiveController, type LiveSnapshot, type SocketLike } from "#app/features/challenge/rules/live-controller.ts";
import { viewFromDeployment } from "#app/features/challenge/rules/live-view.ts";

/** What the web's status route answers. */
export interface StatusAnswer {
  session: ChallengeDeployment;
}

export const statusPath = (challengeId: string) => `/challenges/${encodeURIComponent(challengeId)}/status`;

async function fetchStatus(challengeId: string): Promise<StatusAnswer | null> {
  try {
    const res = await fetch(statusPath(challengeId), { headers: { accept: "application/json" }, cache: "no-store" });
    if (!res.ok) return null;
    return (await res.json()) as StatusAnswer;
  } catch {
    return null;
  }
}

export function socketUrl(path: string, base: string): string {
  const url = new URL(path, base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

const noSubscribe = () => () => {};

export function useDeploymentLive({
  challengeId,
  deployment,
}: {
  challengeId: string;
  deployment: ChallengeDeployment;
}): LiveSnapshot & { controller: LiveController | null } {
  // A new loader snapshot (after start, extend, terminate) starts a new controller; the same
  // snapshot revalidated again keeps the running one.
  const key = `${challengeId}|${deployment.deployment_id}|${deployment.status}|${deployment.expires_at}`;
  const latest = useRef({ deployment });
  latest.current = { deployment };
  const [live, setLive] = useState<{ key: string; controller: LiveController } | null>(null);

  useEffect(() => {
    const initial = latest.current.deployment;
    let currentUrl = initial.websocket_url;
    const controller: LiveController = createLiveController(initial, {
      async connect(attempt) {
        if (attempt > 0) {
          // Catch up with what happened while disconnected.
          const fresh = await fetchStatus(challengeId);
          if (fresh) {
            currentUrl = fresh.session.websocket_url ?? currentUrl;
            controller.apply({ ...fresh.session, type: undefined, deployment_id: fresh.session.deployment_id ?? undefined });
          }
        }
        if (!currentUrl) return null;
        return new WebSocket(socketUrl(currentUrl, window.location.href)) as unknown as SocketLike;
      },
      async poll() {
        return (await fetchStatus(challengeId))?.session ?? null;
      },
    });
    setLive({ key, controller });
    controller.start();
    return () => controller.stop();
  }, [key, challengeId]);

  const controller = live && live.key === key ? live.controller : null;
  const fallback = useMemo<LiveSnapshot>(
    () => ({ view: viewFromDeployment(deployment), mode: "idle", attempts: 0, notice: null }),
    // Only a new deployment (key) makes a new fallback: the deployment's later changes reach the
    // page through the controller.
    [key],
  );
  const snap = useSyncExternalStore(controller?.subscribe ?? noSubscribe, controller?.getSnapshot ?? (() => fallback), () => fallback);
  return { ...snap, controller };
}
