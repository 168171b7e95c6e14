// /confirm-email?token=: the link mailed to a new e-mail address. A button confirms (a POST), so
// a mail scanner that follows links does not move the account by itself.
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/confirm-email";
import { getWeb } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "confirm e-mail | faultline" }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const web = getWeb(context);
  const token = String((await request.formData()).get("token") ?? "");
  if (!token) return data({ ok: false, message: "This confirmation link is invalid or has expired." }, { status: 400 });
  const res = await web.api.confirmEmailChange({ body: { token } });
  if (!res.ok) return data({ ok: false, message: res.detail || "This confirmation link is invalid or has expired." }, { status: res.status });
  if (web.user && web.user.id === res.data.user.id) web.user = res.data.user;
  return { ok: true, message: res.data.message };
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (actionData?.ok) {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="confirm-email-done">
        <h1 className="text-2xl font-bold text-emerald-700 dark:text-term-green">E-mail address changed</h1>
        <p className="mt-2">{actionData.message}</p>
        <Link to="/profile/settings?tab=security" className="btn-primary mt-6">
          Back to settings
        </Link>
      </section>
    );
  }
  return (
    <section className="panel mx-auto max-w-xl space-y-4" data-testid="confirm-email">
      <h1 className="text-2xl font-bold">Confirm your new e-mail address</h1>
      {actionData && !actionData.ok ? (
        <div className="alert-error" role="alert">
          {actionData.message}
        </div>
      ) : null}
      <p>Your faultline account will use this address from now on; the old one stops receiving mail.</p>
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn-primary" disabled={busy || !loaderData.token}>
          Confirm new address
        </button>
      </Form>
    </section>
  );
}
