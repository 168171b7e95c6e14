// /challenges/:id: one challenge and the user's deployment of it. Start, extend, terminate and
// submit are plain <Form method="post"> forms with a hidden `intent`; with JavaScript they go
// through fetchers (no reload) and the status arrives live over the WebSocket
// (useDeploymentLive, authenticated by the sign-in cookie: no API token reaches the page);
// without it every post comes back to this page, and while the deployment is on its way a
// <noscript> refresh reloads the page every 2 s until it is ready.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useCallback, useEffect, useRef, useState } from "react";
import { data, Link, redirect, useFetcher } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/challenge";
import type { ChallengeDetail, ChallengeSession, SubmissionResult as GradeResult } from "../.server/api-client.ts";
import { requireUser } from "../.server/guards.ts";
import { AchievementToast } from "../components/achievement-toast.tsx";
import { DifficultyBadge, StatusBadge } from "../components/challenge/badges.tsx";
import { Countdown, ExpiryWarning } from "../components/challenge/countdown.tsx";
import { SshBox } from "../components/challenge/ssh-box.tsx";
import { useCountdown } from "../hooks/use-countdown.ts";
import { useDeploymentLive } from "../hooks/use-deployment-live.ts";
import { useHydrated } from "../hooks/use-hydrated.ts";
import {
  canExtend,
  canStart,
  canTerminate,
  type DeploymentView,
  deploymentFailedText,
  extendErrorText,
  formatSolveTime,
  isStarting,
  type LiveMode,
  loadErrorText,
  rankText,
  shouldAutoTerminate,
  sshCommand,
  startErrorText,
  submitErrorText,
  terminateErrorText,
  TEXT,
  wrongAnswerFeedback,
} from "../lib/deployment-rules.ts";
import { REQUIRED, SETTINGS } from "../lib/forms.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData && "challenge" in loaderData ? loaderData.challenge.title : "challenge";
  return [{ title: `${title} | faultline` }];
}

const IDLE: ChallengeSession = {
  deployment_id: null,
  status: "idle",
  expires_at: null,
  ssh_details: null,
  websocket_url: null,
  error_message: null,
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { api, user } = requireUser(context, request);
  const [challenge, session, duration] = await Promise.all([
    api.challenge(params.id),
    api.challengeSession(params.id),
    api.sessionDuration(),
  ]);
  if (!challenge.ok) {
    if (challenge.status === 404) throw data(null, { status: 404 });
    return data({ loadError: loadErrorText(challenge.detail) }, { status: challenge.status >= 400 ? challenge.status : 500 });
  }
  return data(
    {
      challenge: challenge.data as ChallengeDetail,
      session: session.ok ? session.data : IDLE,
      durationMinutes: duration.ok ? duration.data.duration_minutes : 30,
      verified: user.is_verified,
      hasSshKey: user.has_ssh_key,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

// ---- action ---------------------------------------------------------------------------------

const INTENTS = ["start", "extend", "terminate", "submit"] as const;
type Intent = (typeof INTENTS)[number];
const isIntent = (v: unknown): v is Intent => typeof v === "string" && (INTENTS as readonly string[]).includes(v);

export const submitSchema = z.object({
  solution: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(10_000, "At most 10000 characters"),
  deployment_uid: z.string({ error: TEXT.noDeployment }).min(1, TEXT.noDeployment),
});

export interface Outcome {
  intent: Intent;
  ok?: string;
  error?: string;
  /** Submit only: the grader's answer, and the deployment it was about. */
  result?: GradeResult;
  deploymentId?: string;
  reply?: SubmissionResult<string[]>;
}

const answer = (outcome: Outcome, status = 200) => data(outcome, { status });

export async function action({ request, context, params }: Route.ActionArgs) {
  const { api } = requireUser(context, request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (!isIntent(intent)) throw data("Unknown challenge form", { status: 400 });
  const id = params.id;
  // Without JavaScript a successful post redirects back (a reload does not post again);
  // fetchers (js=1) take the outcome as data.
  const js = form.get("js") === "1";
  const back = () => redirect(`/challenges/${encodeURIComponent(id)}`, { headers: { "Cache-Control": "no-store" } });

  if (intent === "start") {
    const res = await api.startSession(id);
    if (!res.ok) return answer({ intent, error: startErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: "Deployment queued" }) : back();
  }
  if (intent === "extend") {
    const res = await api.extendSession(id);
    if (!res.ok) return answer({ intent, error: extendErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: res.data.message || "Session extended" }) : back();
  }
  if (intent === "terminate") {
    const res = await api.terminateSession(id);
    if (!res.ok) return answer({ intent, error: terminateErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: res.data.message || "Session terminated" }) : back();
  }

  const submission = parseWithZod(form, { schema: submitSchema });
  if (submission.status !== "success") {
    const noDeployment = !!submission.error?.deployment_uid;
    return answer({ intent, reply: submission.reply(), error: noDeployment ? TEXT.noDeployment : undefined }, 400);
  }
  const { solution, deployment_uid } = submission.value;
  const res = await api.submitSolution(id, { solution, deployment_uid });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: submitErrorText(res.detail), deploymentId: deployment_uid }, res.status);
  return answer({
    intent,
    result: res.data,
    deploymentId: deployment_uid,
    // A wrong answer keeps the text so it can be edited; a correct one clears the form.
    reply: submission.reply({ resetForm: res.data.is_correct }),
  });
}

// ---- page -----------------------------------------------------------------------------------

type Loaded = Exclude<Route.ComponentProps["loaderData"], { loadError: string }>;

export default function ChallengePage({ loaderData, actionData }: Route.ComponentProps) {
  if ("loadError" in loaderData) return <LoadError message={loaderData.loadError} />;
  return <Challenge data={loaderData} actionData={actionData as Outcome | undefined} />;
}

function LoadError({ message }: { message: string }) {
  return (
    <section className="panel mx-auto max-w-2xl space-y-4" data-testid="challenge-load-error">
      <p className="alert-error" role="alert">
        {message}
      </p>
      <Link to="/challenges" className="btn-ghost">
        {TEXT.returnToChallenges}
      </Link>
    </section>
  );
}

/** One fetcher per control; without JavaScript the same outcome arrives as actionData. */
function useControl(intent: Intent, actionData: Outcome | undefined) {
  const fetcher = useFetcher<Outcome>({ key: `challenge-${intent}` });
  const outcome = (fetcher.data as Outcome | undefined) ?? (actionData?.intent === intent ? actionData : undefined);
  return { fetcher, outcome, busy: fetcher.state !== "idle" };
}

function Challenge({ data: d, actionData }: { data: Loaded; actionData: Outcome | undefined }) {
  const { challenge } = d;
  const hydrated = useHydrated();
  const live = useDeploymentLive({ challengeId: challenge.uid, session: d.session });
  const view = live.view;

  const start = useControl("start", actionData);
  const extend = useControl("extend", actionData);
  const terminate = useControl("terminate", actionData);
  const submit = useControl("submit", actionData);
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

  // Stale answers of an earlier deployment are dropped when a new one starts (forget below).
  const submitOutcome = submit.outcome;
  const solved = submitOutcome?.result?.is_correct ? submitOutcome.result : null;

  return (
    <div className="space-y-6" data-testid="challenge-page">
      <Link to="/challenges" className="btn-ghost px-3 py-1" data-testid="back-button">
        ← cd ../challenges
      </Link>

      <header className="space-y-3">
        <h1 className="text-2xl font-bold sm:text-3xl">{challenge.title}</h1>
        <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-zinc-600 dark:text-zinc-400">
          <div>
            <dt className="sr-only">difficulty</dt>
            <dd>
              <DifficultyBadge level={challenge.difficulty_level} />
            </dd>
          </div>
          <div className="flex gap-1">
            <dt className="sr-only">points</dt>
            <dd data-testid="challenge-points">{challenge.points} pts</dd>
          </div>
          <div className="flex gap-1">
            <dt className="sr-only">estimated time</dt>
            <dd data-testid="challenge-time">~{challenge.estimated_time_minutes || 30} min</dd>
          </div>
          <div className="flex gap-1">
            <dt className="sr-only">category</dt>
            <dd data-testid="challenge-category">#{challenge.category}</dd>
          </div>
        </dl>
        <div className="max-w-3xl space-y-3" data-testid="challenge-description">
          {paragraphs(challenge.description).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      </header>

      <SessionPanel
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

      {solved ? <SuccessScreen result={solved} /> : null}
      {solved?.achievements_unlocked?.length ? <AchievementToast achievements={solved.achievements_unlocked} /> : null}

      {view.status === "ready" && view.ssh ? (
        <>
          <Instructions challenge={challenge} />
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

type Control = ReturnType<typeof useControl>;

/** Content is wrapped at ~100 columns in YAML: blank lines separate paragraphs, single breaks do not. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
}

function ControlForm({
  control,
  intent,
  label,
  className,
  disabled,
  hydrated,
  testId,
  onSubmit,
}: {
  onSubmit?: (intent: Intent) => void;
  control: Control;
  intent: Intent;
  label: string;
  className: string;
  disabled: boolean;
  hydrated: boolean;
  testId: string;
}) {
  return (
    <control.fetcher.Form method="post" className="inline" onSubmit={() => onSubmit?.(intent)}>
      <input type="hidden" name="intent" value={intent} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <button type="submit" className={className} disabled={disabled || control.busy} data-testid={testId}>
        {control.busy ? `${label}...` : label}
      </button>
    </control.fetcher.Form>
  );
}

const MODE_LABEL: Record<LiveMode, string | null> = {
  idle: null,
  connecting: "connecting",
  live: "live",
  reconnecting: "reconnecting",
  polling: "checking every 5 s",
  closed: null,
};

function SessionPanel({
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
  data: Loaded;
  forget: (intent: Intent) => void;
  start: Control;
  extend: Control;
  terminate: Control;
}) {
  const status = view.status;
  const startError = canStart(status) ? start.outcome?.error : undefined;
  const extendError = extend.outcome?.error;
  const terminateError = terminate.outcome?.error;
  // The extend failure is dismissible: hidden until the next extend answers.
  const [dismissed, setDismissed] = useState<Outcome | undefined>(undefined);
  const extendShown = extendError && dismissed !== extend.outcome ? extendError : undefined;
  const modeLabel = MODE_LABEL[mode];

  return (
    <section className="panel space-y-4" aria-labelledby="session-heading" data-testid="session-panel">
      {/* Without JavaScript the page reloads itself while the deployment is on its way. */}
      {isStarting(status) ? (
        <noscript dangerouslySetInnerHTML={{ __html: '<meta http-equiv="refresh" content="2">' }} />
      ) : null}
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
          {SETTINGS.sshRequired}{" "}
          <Link to="/profile/settings?tab=security">Add your key in settings.</Link>
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

      {isStarting(status) ? <Progress view={view} /> : null}
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
            <button
              type="button"
              className="text-xs hover:underline"
              onClick={() => setDismissed(extend.outcome)}
            >
              [x] dismiss
            </button>
          ) : (
            <Link to="." className="text-xs" replace>
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

function Progress({ view }: { view: DeploymentView }) {
  const pct = view.progress ?? null;
  return (
    <div className="space-y-2" data-testid="deployment-progress">
      <div className="h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800">
        <div
          className={`h-full bg-emerald-500 transition-all ${pct === null ? "w-1/3 animate-pulse" : ""}`}
          style={pct === null ? undefined : { width: `${Math.max(5, pct)}%` }}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct ?? undefined}
          aria-label="deployment progress"
        />
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="progress-message">
        {view.progressMessage ?? "Preparing your environment..."}
      </p>
      {view.logs.length ? (
        <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-black" data-testid="deployment-logs">
          {view.logs.slice(-20).join("\n")}
        </pre>
      ) : null}
    </div>
  );
}

function Instructions({ challenge }: { challenge: ChallengeDetail }) {
  if (!challenge.instructions && !challenge.hints?.length) return null;
  return (
    <section className="panel space-y-4" aria-labelledby="instructions-heading" data-testid="instructions">
      <h2 id="instructions-heading" className="prompt text-lg font-bold">
        cat INSTRUCTIONS
      </h2>
      {challenge.instructions ? <div className="whitespace-pre-line text-sm">{challenge.instructions}</div> : null}
      {challenge.hints?.length ? (
        <div className="space-y-2">
          {challenge.hints.map((hint, i) => (
            <details key={i} className="rounded border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-800">
              <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">hint {i + 1}</summary>
              <p className="mt-2 whitespace-pre-line">{hint}</p>
            </details>
          ))}
        </div>
      ) : null}
    </section>
  );
}

function SubmitForm({
  deploymentId,
  control,
  outcome,
  hydrated,
}: {
  deploymentId: string | null;
  control: Control;
  outcome: Outcome | undefined;
  hydrated: boolean;
}) {
  const wrong = outcome?.result && !outcome.result.is_correct ? outcome.result : null;
  const fieldError = outcome?.reply?.error?.solution?.[0];
  const formRef = useRef<HTMLFormElement>(null);
  const previous = outcome?.reply?.initialValue?.solution;
  // With JavaScript the textarea keeps what was typed; without, the server sends it back.
  useEffect(() => {
    if (outcome?.result?.is_correct) formRef.current?.reset();
  }, [outcome]);
  return (
    <section className="panel space-y-4" aria-labelledby="submit-heading" data-testid="submit-section">
      <h2 id="submit-heading" className="prompt text-lg font-bold">
        ./submit
      </h2>
      <control.fetcher.Form method="post" className="space-y-3" ref={formRef} noValidate>
        <input type="hidden" name="intent" value="submit" />
        <input type="hidden" name="deployment_uid" value={deploymentId ?? ""} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <div>
          <label className="label" htmlFor="solution">
            solution
          </label>
          <textarea
            id="solution"
            name="solution"
            rows={5}
            className="input"
            placeholder="What was broken, and what did you change?"
            defaultValue={typeof previous === "string" ? previous : undefined}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "solution-error" : undefined}
            spellCheck={false}
          />
          {fieldError ? (
            <p id="solution-error" className="field-error">
              {fieldError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary" disabled={control.busy} data-testid="submit-button">
          {control.busy ? "validating..." : "submit solution"}
        </button>
      </control.fetcher.Form>
      {wrong ? (
        <div className="alert-error space-y-1" role="alert" data-testid="validation-failed">
          <p className="font-bold">{TEXT.validationFailed}</p>
          <p data-testid="validation-feedback" className="whitespace-pre-line">
            {wrongAnswerFeedback(wrong.feedback)}
          </p>
          <p>{TEXT.tryAgain}</p>
        </div>
      ) : null}
      {outcome?.error ? (
        <p className="alert-error" role="alert" data-testid="submit-error">
          {outcome.error}
        </p>
      ) : null}
    </section>
  );
}

function SuccessScreen({ result }: { result: GradeResult }) {
  return (
    <section className="panel space-y-4 border-emerald-600 dark:border-term-green" role="status" data-testid="success-screen">
      <p className="prompt text-sm text-zinc-500">./check --verify</p>
      <h2 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Challenge complete!</h2>
      {result.feedback ? <p className="whitespace-pre-line text-sm">{result.feedback}</p> : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">solve time</dt>
          <dd className="text-xl font-bold" data-testid="solve-time">
            {result.solve_time_seconds !== null ? formatSolveTime(result.solve_time_seconds) : "n/a"}
          </dd>
        </div>
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">rank</dt>
          <dd className="text-xl font-bold" data-testid="solve-rank">
            {result.rank !== null ? rankText(result.rank, result.ranked_users) : "unranked"}
          </dd>
        </div>
        <div className="rounded border border-zinc-300 p-3 dark:border-zinc-800">
          <dt className="label">points earned</dt>
          <dd className="text-xl font-bold" data-testid="points-earned">
            +{result.points_awarded}
          </dd>
        </div>
      </dl>
      {result.already_solved ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="already-solved">
          You had already solved this challenge: no new points this time.
        </p>
      ) : null}
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Total: <span data-testid="total-points">{result.total_points}</span> points.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link to="/challenges" className="btn-primary">
          next challenge
        </Link>
        <Link to="/leaderboard" className="btn-ghost">
          leaderboard/
        </Link>
      </div>
    </section>
  );
}
