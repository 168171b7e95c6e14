// /challenges/:id/reset: resetting a deployment to its broken state. GET is the confirmation
// step without JavaScript (a page that asks); POST resets, then goes back to the challenge page
// (which follows resetting → ready), or answers the fetcher (js=1) with the outcome.
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/challenge-reset";
import { requireUser } from "#app/.server/guards.ts";
import { RESET_CONFIRM, RESET_FAILED } from "#app/features/challenge/rules/reset.ts";

export function meta() {
  return [{ title: "reset deployment | faultline" }];
}

export function loader({ request, context, params }: Route.LoaderArgs) {
  requireUser(context, request);
  return { id: params.id };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { api } = requireUser(context, request);
  const js = (await request.formData()).get("js") === "1";
  const res = await api.resetDeployment({ params: { id: params.id } });
  if (!res.ok) return data({ error: res.detail || RESET_FAILED }, { status: res.status });
  if (js) return { ok: res.data.message };
  throw redirect(`/challenges/${encodeURIComponent(params.id)}`, { headers: { "Cache-Control": "no-store" } });
}

export default function ChallengeReset({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const back = `/challenges/${encodeURIComponent(loaderData.id)}`;
  return (
    <section className="panel mx-auto max-w-xl space-y-4" data-testid="reset-confirm">
      <h1 className="text-2xl font-bold">Reset the deployment</h1>
      <p>{RESET_CONFIRM}</p>
      {actionData && "error" in actionData && actionData.error ? (
        <p className="alert-error" role="alert" data-testid="reset-error">
          {actionData.error}
        </p>
      ) : null}
      <Form method="post" className="flex flex-wrap gap-2">
        <button type="submit" className="btn-danger" disabled={busy} data-testid="reset-confirm-button">
          Reset
        </button>
        <Link to={back} className="btn-ghost">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
