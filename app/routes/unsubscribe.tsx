// /unsubscribe?token=: the link at the foot of every notification mail. No sign-in: the signed
// token names the user and the setting. Opening the page changes nothing (mail scanners follow
// links); the button turns the setting off. Mail clients' one-click (RFC 8058) posts to the API
// directly (List-Unsubscribe-Post).
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/unsubscribe";
import { getWeb } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "unsubscribe | faultline" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const res = token ? await getWeb(context).api.describeUnsubscribe({ query: { token } }) : null;
  return { token, info: res?.ok ? res.data : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = String((await request.formData()).get("token") ?? "");
  const res = await getWeb(context).api.unsubscribe({ query: { token } });
  if (!res.ok) return data({ ok: false, message: res.detail || "This unsubscribe link is not valid." }, { status: res.status });
  return { ok: true, message: res.data.message };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { token, info } = loaderData;
  if (actionData) {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="unsubscribe-done">
        <div className={actionData.ok ? "alert-ok" : "alert-error"} role={actionData.ok ? "status" : "alert"}>
          {actionData.message}
        </div>
        <Link to="/" className="btn-ghost mt-6">
          Home
        </Link>
      </section>
    );
  }
  if (!info) {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="unsubscribe-invalid">
        <h1 className="text-2xl font-bold">Unsubscribe</h1>
        <p className="mt-2">This unsubscribe link is not valid. You can change every notification in your settings.</p>
      </section>
    );
  }
  return (
    <section className="panel mx-auto max-w-xl space-y-4" data-testid="unsubscribe">
      <h1 className="text-2xl font-bold">Unsubscribe</h1>
      {info.subscribed ? (
        <>
          <p>Stop getting {info.label} by e-mail?</p>
          <Form method="post">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className="btn-danger" disabled={busy}>
              Unsubscribe from {info.label}
            </button>
          </Form>
        </>
      ) : (
        <p>You no longer get {info.label} by e-mail. You can turn them back on in your settings.</p>
      )}
    </section>
  );
}
