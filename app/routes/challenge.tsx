// /challenges/:id: one challenge and the user's deployment of it. Start, extend, terminate and
// submit are plain <Form method="post"> forms with a hidden `intent`; with JavaScript they go
// through fetchers (no reload) and the status arrives live over the WebSocket
// (useDeploymentLive, authenticated by the sign-in cookie: no API token reaches the page);
// without it every post comes back to this page, and while the deployment is on its way a
// <noscript> refresh reloads the page every 2 s until it is ready. The page's components and
// rules are the feature folder app/features/challenge/.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/challenge";
import type { ChallengeDeployment } from "#shared/contract/deployments.ts";
import { requireUser } from "#app/.server/guards.ts";
import {
  ChallengeScreen,
  extendErrorText,
  hintSchema,
  isIntent,
  LoadError,
  loadErrorText,
  type Outcome,
  startErrorText,
  submitErrorText,
  submitSchema,
  TEXT,
  terminateErrorText,
} from "#app/features/challenge/index.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  const title = loaderData && "challenge" in loaderData ? loaderData.challenge.title : "challenge";
  return [{ title: `${title} | faultline` }];
}

const IDLE: ChallengeDeployment = {
  deployment_id: null,
  status: "idle",
  expires_at: null,
  ssh_details: null,
  websocket_url: null,
  error_message: null,
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { api, user } = requireUser(context, request);
  const [challenge, deployment, duration, hints] = await Promise.all([
    api.getChallenge({ params: { id: params.id } }),
    api.getChallengeDeployment({ params: { id: params.id } }),
    api.getDeploymentDuration(),
    api.getHints({ params: { id: params.id } }),
  ]);
  // Solved on an earlier visit: the debrief (root cause, compare, replay) stays on the page.
  const debrief = hints.ok && hints.data.solved ? await api.getDebrief({ params: { id: params.id } }) : null;
  if (!challenge.ok) {
    if (challenge.status === 404) throw data(null, { status: 404 });
    return data({ loadError: loadErrorText(challenge.detail) }, { status: challenge.status >= 400 ? challenge.status : 500 });
  }
  return data(
    {
      challenge: challenge.data,
      deployment: deployment.ok ? deployment.data : IDLE,
      durationMinutes: duration.ok ? duration.data.duration_minutes : 30,
      verified: user.is_verified,
      hasSshKey: user.has_ssh_key,
      hints: hints.ok ? hints.data : null,
      debrief: debrief?.ok ? debrief.data : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
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
    const res = await api.startDeployment({ params: { id } });
    if (!res.ok) return answer({ intent, error: startErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: "Deployment queued" }) : back();
  }
  if (intent === "extend") {
    const res = await api.extendDeployment({ params: { id } });
    if (!res.ok) return answer({ intent, error: extendErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: res.data.message || "Session extended" }) : back();
  }
  if (intent === "terminate") {
    const res = await api.terminateDeployment({ params: { id } });
    if (!res.ok) return answer({ intent, error: terminateErrorText(res.detail) }, res.status);
    return js ? answer({ intent, ok: res.data.message || "Session terminated" }) : back();
  }

  if (intent === "hint") {
    // Without JavaScript the page comes back at the hints, the new one revealed.
    const parsed = hintSchema.safeParse({ number: form.get("number") });
    if (!parsed.success) return answer({ intent, error: "Choose a hint to reveal." }, 400);
    const res = await api.revealHint({ params: { id }, body: { number: parsed.data.number } });
    if (!res.ok) return answer({ intent, error: res.detail || "The hint could not be revealed. Try again." }, res.status);
    return js ? answer({ intent, ok: "Hint revealed" }) : redirect(`/challenges/${encodeURIComponent(id)}#hints`, { headers: { "Cache-Control": "no-store" } });
  }

  const submission = parseWithZod(form, { schema: submitSchema });
  if (submission.status !== "success") {
    const noDeployment = !!submission.error?.deployment_uid;
    return answer({ intent, reply: submission.reply(), error: noDeployment ? TEXT.noDeployment : undefined }, 400);
  }
  const { solution, deployment_uid } = submission.value;
  const res = await api.submitAnswer({ params: { id }, body: { solution, deployment_uid } });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: submitErrorText(res.detail), deploymentId: deployment_uid }, res.status);
  // A correct answer opens the debrief (root cause, compare, replay) on the success screen.
  const debrief = res.data.is_correct ? await api.getDebrief({ params: { id } }) : null;
  return answer({
    intent,
    result: res.data,
    debrief: debrief?.ok ? debrief.data : undefined,
    deploymentId: deployment_uid,
    // A wrong answer keeps the text so it can be edited; a correct one clears the form.
    reply: submission.reply({ resetForm: res.data.is_correct }),
  });
}

export default function ChallengePage({ loaderData, actionData }: Route.ComponentProps) {
  if ("loadError" in loaderData) return <LoadError message={loaderData.loadError} />;
  return <ChallengeScreen data={loaderData} actionData={actionData as Outcome | undefined} />;
}
