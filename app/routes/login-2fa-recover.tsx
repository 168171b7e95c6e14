// /login/2fa/recover?token=: the link mailed for a lost authenticator. A button confirms (a POST),
// so a mail scanner that follows links schedules nothing by itself; confirming schedules 2FA off
// three days later (a sign-in with a code before then cancels it; decision 017).
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/login-2fa-recover";
import { getWeb } from "#app/.server/guards.ts";

const INVALID = "This link is invalid or has expired. Ask for a new one at sign-in.";

export function meta() {
  return [{ title: "lost authenticator | faultline" }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const web = getWeb(context);
  const token = String((await request.formData()).get("token") ?? "").slice(0, 300);
  if (!token) return data({ ok: false, message: INVALID }, { status: 400 });
  const res = await web.api.confirmTwoFactorRemoval({ body: { token } });
  if (!res.ok) return data({ ok: false, message: res.detail || INVALID }, { status: res.status });
  return { ok: true, message: res.data.message };
}

export default function RecoverTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (actionData?.ok) {
    return (
      <section className="panel mx-auto max-w-xl" data-testid="twofa-removal-scheduled">
        <h1 className="text-2xl font-bold">2FA will be turned off</h1>
        <p className="mt-2">{actionData.message}</p>
        <Link to="/login" className="btn-primary mt-6">
          Back to sign-in
        </Link>
      </section>
    );
  }
  return (
    <section className="panel mx-auto max-w-xl space-y-4" data-testid="twofa-removal">
      <h1 className="text-2xl font-bold">Turn off two-factor authentication?</h1>
      {actionData && !actionData.ok ? (
        <div className="alert-error" role="alert">
          {actionData.message}
        </div>
      ) : null}
      <p>
        Without your authenticator app and recovery codes you cannot finish signing in. Confirm here and 2FA goes off three days from now; then your password
        alone signs you in, and you can turn 2FA on again with a new app.
      </p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The wait protects you if someone else has your password and this mailbox: a sign-in with a code before then cancels it, and this address is told.
      </p>
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn-danger" disabled={busy || !loaderData.token}>
          Turn 2FA off in three days
        </button>
      </Form>
    </section>
  );
}
