// The challenge page once the challenge has loaded: the challenge, its deployment's panel, and
// once the deployment is ready the instructions and the submit form (or the success screen).
// It holds the page's state: the live view of the deployment (useDeploymentLive), one fetcher
// per control, and the countdown that terminates the deployment at zero.
import { useCallback, useRef } from "react";
import { Link } from "#app/components/link.tsx";
import type { Debrief, HintsState } from "#shared/contract/debrief.ts";
import type { ChallengeDeployment, ChallengeDetail } from "#shared/contract/deployments.ts";
import { AchievementToast } from "#app/components/achievement-toast.tsx";
import { useCountdown } from "#app/hooks/use-countdown.ts";
import { useDeploymentLive } from "#app/hooks/use-deployment-live.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { shouldAutoTerminate } from "#app/features/challenge/rules/countdown.ts";
import type { Intent, Outcome } from "#app/features/challenge/rules/form.ts";
import { ChallengeHeader } from "./challenge-header.tsx";
import { DebriefPanel } from "./compare.tsx";
import { useControl } from "./control-form.tsx";
import { DeploymentPanel } from "./deployment-panel.tsx";
import { Instructions } from "./instructions.tsx";
import { SubmitForm } from "./submit-form.tsx";
import { TerminalPanel } from "./terminal-panel.tsx";
import { sshCommand } from "#app/features/challenge/rules/ssh-command.ts";
import { SuccessScreen } from "./success-screen.tsx";

/** What the route's loader gives the page when the challenge loaded. */
export interface ChallengePageData {
  challenge: ChallengeDetail;
  deployment: ChallengeDeployment;
  durationMinutes: number;
  verified: boolean;
  hasSshKey: boolean;
  /** Costed hints: counts, costs and the revealed texts only (null when they could not load). */
  hints: HintsState | null;
  /** Once solved (an earlier visit): the debrief, compare and replay. */
  debrief: Debrief | null;
}

export function ChallengeScreen({ data: d, actionData }: { data: ChallengePageData; actionData: Outcome | undefined }) {
  const { challenge } = d;
  const hydrated = useHydrated();
  const live = useDeploymentLive({ challengeId: challenge.uid, deployment: d.deployment });
  const view = live.view;

  const start = useControl("start", actionData);
  const extend = useControl("extend", actionData);
  const terminate = useControl("terminate", actionData);
  const submit = useControl("submit", actionData);
  const hint = useControl("hint", actionData);
  // A new post makes the other controls' last answers stale (an old terminate error after a
  // successful start); a new start also ends the previous deployment's submit answer.
  const controls = { start, extend, terminate, submit };
  const forget = (intent: Intent) => {
    for (const [other, c] of Object.entries(controls)) {
      if (other === intent || (other === "submit" && intent !== "start")) continue;
      if (c.fetcher.state === "idle" && c.fetcher.data !== undefined) c.fetcher.reset();
    }
  };

  // At zero an active deployment is terminated (once per deployment).
  const statusRef = useRef(view.status);
  statusRef.current = view.status;
  const autoTerminated = useRef<string | null>(null);
  const onZero = useCallback(() => {
    if (!shouldAutoTerminate(statusRef.current, 0) || autoTerminated.current === view.deploymentId) return;
    autoTerminated.current = view.deploymentId;
    void terminate.fetcher.submit({ intent: "terminate", js: "1" }, { method: "post" });
  }, [view.deploymentId, terminate.fetcher]);
  const seconds = useCountdown(view.expiresAt, onZero);
  // The browser terminal stays on the page after its deployment ends, to say so.
  const terminalFor = useRef<{ id: string; ssh: string } | null>(null);
  if (view.status === "ready" && view.ssh && view.deploymentId) terminalFor.current = { id: view.deploymentId, ssh: sshCommand(view.ssh) };
  const terminal = terminalFor.current && (view.deploymentId ?? terminalFor.current.id) === terminalFor.current.id ? terminalFor.current : null;

  // Stale answers of an earlier deployment are dropped when a new one starts (forget below).
  const submitOutcome = submit.outcome;
  const solved = submitOutcome?.result?.is_correct ? submitOutcome.result : null;

  return (
    <div className="space-y-6" data-testid="challenge-page">
      <Link to="/challenges" className="btn-ghost px-3 py-1" data-testid="back-button">
        ← cd ../challenges
      </Link>

      <ChallengeHeader challenge={challenge} />

      <DeploymentPanel
        view={view}
        mode={live.mode}
        notice={live.notice}
        seconds={seconds}
        hydrated={hydrated}
        data={d}
        forget={forget}
        start={start}
        extend={extend}
        terminate={terminate}
      />
      {terminal ? <TerminalPanel key={terminal.id} deploymentId={terminal.id} sshCommand={terminal.ssh} hydrated={hydrated} /> : null}

      {solved ? <SuccessScreen result={solved} debrief={submitOutcome?.debrief ?? null} hydrated={hydrated} /> : null}
      {!solved && d.debrief ? (
        <section className="panel space-y-4" aria-labelledby="debrief-heading" data-testid="solved-debrief">
          <h2 id="debrief-heading" className="prompt text-lg font-bold">
            cat DEBRIEF
          </h2>
          <DebriefPanel debrief={d.debrief} hydrated={hydrated} />
        </section>
      ) : null}
      {solved?.achievements_unlocked?.length ? <AchievementToast achievements={solved.achievements_unlocked} /> : null}

      {view.status === "ready" && view.ssh ? (
        <>
          <Instructions challenge={challenge} hints={d.hints} hintControl={hint} hydrated={hydrated} />
          {!solved ? <SubmitForm deploymentId={view.deploymentId} control={submit} outcome={submitOutcome} hydrated={hydrated} /> : null}
        </>
      ) : submitOutcome?.error && !solved ? (
        <p className="alert-error" role="alert" data-testid="submit-error">
          {submitOutcome.error}
        </p>
      ) : null}
    </div>
  );
}
