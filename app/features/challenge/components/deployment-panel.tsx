// The deployment's panel: status, live-channel mode, countdown, the controls (start or retry,
// extend, terminate), SSH details, progress while it starts, and each control's error. Without
// JavaScript a <noscript> refresh reloads the page every 2 s while the deployment starts.
import { useState } from "react";
import { useLocation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { SETTINGS } from "#app/lib/forms.ts";
import type { Intent, Outcome } from "#app/features/challenge/rules/form.ts";
import type { LiveMode } from "#app/features/challenge/rules/live-controller.ts";
import type { DeploymentView } from "#app/features/challenge/rules/live-view.ts";
import { sshCommand } from "#app/features/challenge/rules/ssh-command.ts";
import { canExtend, canStart, canTerminate, isStarting } from "#app/features/challenge/rules/status.ts";
import { deploymentFailedText, TEXT } from "#app/features/challenge/rules/texts.ts";
import { StatusBadge } from "./badges.tsx";
import { type Control, ControlForm } from "./control-form.tsx";
import { Countdown, ExpiryWarning } from "./countdown.tsx";
import { DeploymentProgress } from "./deployment-progress.tsx";
import { ResetControl } from "./reset-control.tsx";
import { SshBox } from "./ssh-box.tsx";

/** What the panel needs to know of the user and the platform (from the route's loader). */
interface PanelFacts {
  verified: boolean;
  hasSshKey: boolean;
  durationMinutes: number;
}

const MODE_LABEL: Record<LiveMode, string | null> = {
  idle: null,
  connecting: "connecting",
  live: "live",
  reconnecting: "reconnecting",
  polling: "checking every 5 s",
  closed: null,
};

export function DeploymentPanel({
  view,
  mode,
  notice,
  seconds,
  hydrated,
  data: d,
  forget,
  start,
  extend,
  terminate,
}: {
  view: DeploymentView;
  mode: LiveMode;
  notice: string | null;
  seconds: number | null;
  hydrated: boolean;
  data: PanelFacts;
  forget: (intent: Intent) => void;
  start: Control;
  extend: Control;
  terminate: Control;
}) {
  const status = view.status;
  const startError = canStart(status) ? start.outcome?.error : undefined;
  const extendError = extend.outcome?.error;
  // Without scripts, dismissing reloads this page without the extend outcome.
  const { pathname } = useLocation();
  const terminateError = terminate.outcome?.error;
  // The extend failure is dismissible: hidden until the next extend answers.
  const [dismissed, setDismissed] = useState<Outcome | undefined>(undefined);
  const extendShown = extendError && dismissed !== extend.outcome ? extendError : undefined;
  const modeLabel = MODE_LABEL[mode];

  return (
    <section className="panel space-y-4" aria-labelledby="session-heading" data-testid="session-panel">
      {/* Without JavaScript the page reloads itself while the deployment is on its way. */}
      {isStarting(status) ? <noscript dangerouslySetInnerHTML={{ __html: '<meta http-equiv="refresh" content="2">' }} /> : null}
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="session-heading" className="prompt text-lg font-bold">
            session
          </h2>
          <StatusBadge status={status} />
          {modeLabel ? (
            <span className="text-xs text-zinc-500" data-testid="live-mode" data-mode={mode}>
              [{modeLabel}]
            </span>
          ) : null}
        </div>
        {view.expiresAt && canTerminate(status) ? <Countdown expiresAt={view.expiresAt} seconds={seconds} /> : null}
      </header>

      {!d.verified ? (
        <p className="alert-warn" role="alert" data-testid="verification-required">
          {TEXT.verificationRequired}
        </p>
      ) : null}
      {d.verified && !d.hasSshKey && canStart(status) ? (
        <p className="alert-warn" data-testid="ssh-key-required">
          {SETTINGS.sshRequired} <Link to="/profile/settings?tab=security">Add your key in settings.</Link>
        </p>
      ) : null}

      {status === "failed" ? (
        <div className="alert-error space-y-3" role="alert" data-testid="deployment-failed">
          <p>{deploymentFailedText(view.errorMessage)}</p>
          <ControlForm
            control={start}
            intent="start"
            label="Retry"
            className="btn-danger"
            disabled={!d.verified}
            hydrated={hydrated}
            onSubmit={forget}
            testId="retry-button"
          />
        </div>
      ) : null}
      {view.warning ? (
        <p className="alert-warn" role="status" data-testid="deployment-warning">
          {view.warning}
        </p>
      ) : null}

      {isStarting(status) ? <DeploymentProgress view={view} /> : null}
      <ExpiryWarning seconds={canTerminate(status) ? seconds : null} />

      {view.ssh && status === "ready" ? <SshBox command={sshCommand(view.ssh)} hostKey={view.ssh.host_key_fingerprint} /> : null}

      <div className="flex flex-wrap items-center gap-3">
        {status !== "failed" ? (
          <ControlForm
            control={start}
            intent="start"
            label="start challenge"
            className={canStart(status) && d.verified ? "btn-primary" : "btn-ghost"}
            disabled={!canStart(status) || !d.verified}
            hydrated={hydrated}
            onSubmit={forget}
            testId="start-button"
          />
        ) : null}
        <ControlForm
          control={extend}
          intent="extend"
          label={`extend +${d.durationMinutes} min`}
          className="btn-ghost"
          disabled={!canExtend(status)}
          hydrated={hydrated}
          onSubmit={forget}
          testId="extend-button"
        />
        <ControlForm
          control={terminate}
          intent="terminate"
          label="terminate"
          className="btn-danger"
          disabled={!canTerminate(status)}
          hydrated={hydrated}
          onSubmit={forget}
          testId="terminate-button"
        />
        <ResetControl status={status} hydrated={hydrated} />
      </div>
      {canStart(status) && status !== "failed" ? (
        <p className="text-xs text-zinc-500">
          A session lasts {d.durationMinutes} minutes in a fresh container; extend it {d.durationMinutes} minutes at a time.
        </p>
      ) : null}

      {startError ? (
        <p className="alert-error" role="alert" data-testid="start-error">
          {startError}
        </p>
      ) : null}
      {extendShown ? (
        <div className="alert-error flex items-start justify-between gap-3" role="alert" data-testid="extend-error">
          <span>{extendShown}</span>
          {hydrated ? (
            <button type="button" className="text-xs hover:underline" onClick={() => setDismissed(extend.outcome)}>
              [x] dismiss
            </button>
          ) : (
            <Link to={pathname} className="text-xs" replace>
              [x] dismiss
            </Link>
          )}
        </div>
      ) : null}
      {terminateError ? (
        <p className="alert-error" role="alert" data-testid="terminate-error">
          {terminateError}
        </p>
      ) : null}
      {notice ? (
        <p className="text-xs text-zinc-500" data-testid="live-notice">
          live updates: {notice}; checking every 5 s instead.
        </p>
      ) : null}
    </section>
  );
}
