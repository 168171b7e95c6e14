// The second step of a login for accounts with two-factor authentication on: a code from the
// authenticator app, or (?method=recovery) one of the recovery codes, or (?method=lost) the link
// for a lost authenticator, mailed to the verified address (2FA then goes off three days after
// it is followed, unless a sign-in with a code comes first; decision 017). Plain links and forms:
// every path works without JavaScript.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseForm } from "#app/lib/parse-form.ts";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/login-2fa";
import { completeLogin } from "#app/.server/auth.ts";
import { getWeb, requireAnonymous, safeRedirect } from "#app/.server/guards.ts";
import { Field, FormErrors } from "#app/components/field.tsx";
import { recoveryCodeSchema, secondFactorSchema } from "#app/lib/forms.ts";

export function meta() {
  return [{ title: "two-factor | faultline" }];
}

const METHODS = ["code", "recovery", "lost"] as const;
type Method = (typeof METHODS)[number];
const methodOf = (v: unknown): Method => ((METHODS as readonly unknown[]).includes(v) ? (v as Method) : "code");

/** Wrong codes keep the person here; any other refusal means the attempt is over. */
const WRONG_CODE = new Set(["Invalid verification code", "Invalid recovery code"]);

function pending(context: Route.LoaderArgs["context"]) {
  requireAnonymous(context);
  const web = getWeb(context);
  const mfa = web.session.get("mfa");
  if (!mfa || mfa.expires < Date.now()) throw expired(web, "The sign-in attempt expired. Please sign in again.");
  return { web, mfa };
}

function expired(web: ReturnType<typeof getWeb>, message: string) {
  web.session.unset("mfa");
  web.session.set("flash", message);
  web.touch();
  return redirect("/login");
}

export function loader({ request, context }: Route.LoaderArgs) {
  pending(context);
  return { method: methodOf(new URL(request.url).searchParams.get("method")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { web, mfa } = pending(context);
  const form = await request.formData();
  const method = methodOf(form.get("method"));
  if (method === "lost") {
    const res = await web.api.requestTwoFactorRemoval({ body: { mfa_token: mfa.token } });
    if (!res.ok) {
      if (res.status === 401) throw expired(web, res.detail || "The sign-in attempt expired. Please sign in again.");
      return data({ method, error: res.detail || "The link could not be sent. Try again later." }, { status: res.status });
    }
    return { method, sent: res.data.message };
  }
  const schema = method === "recovery" ? recoveryCodeSchema : secondFactorSchema;
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data({ method, reply: submission.reply() }, { status: 400 });
  const body = "recovery_code" in submission.value ? { recovery_code: submission.value.recovery_code } : { code: submission.value.code };
  const res = await web.api.loginSecondFactor({ body: { mfa_token: mfa.token, ...body } });
  if (!res.ok) {
    if (res.status === 401 && !WRONG_CODE.has(res.detail)) throw expired(web, res.detail);
    // hideFields, not resetForm: conform's resetForm drops formErrors, and the message would vanish.
    const fallback = method === "recovery" ? "Invalid recovery code" : "Invalid verification code";
    const field = method === "recovery" ? "recovery_code" : "code";
    return data({ method, reply: submission.reply({ formErrors: [res.detail || fallback], hideFields: [field] }) }, { status: res.status });
  }
  throw redirect(completeLogin(web, res.data, safeRedirect(mfa.redirectTo)));
}

export default function SecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  const method = actionData?.method ?? loaderData.method;
  return (
    <section className="mx-auto max-w-md">
      {method === "lost" ? (
        <LostAuthenticator
          sent={actionData && "sent" in actionData ? actionData.sent : undefined}
          error={actionData && "error" in actionData ? actionData.error : undefined}
        />
      ) : (
        <CodeForm method={method} reply={actionData && "reply" in actionData ? actionData.reply : undefined} />
      )}
    </section>
  );
}

function CodeForm({ method, reply }: { method: "code" | "recovery"; reply?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const recovery = method === "recovery";
  const [form, fields] = useForm({
    id: `second-factor-${method}`,
    lastResult: navigation.state === "idle" ? reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: recovery ? recoveryCodeSchema : secondFactorSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <>
      <h1 className="prompt text-2xl font-bold">{recovery ? "./2fa --recovery-code" : "./2fa --verify"}</h1>
      <p className="mt-1 text-sm text-zinc-500">
        {recovery
          ? "Enter one of the recovery codes you saved when you turned on 2FA. Each code works once."
          : "Enter the 6-digit code from your authenticator app."}
      </p>
      <Form method="post" {...getFormProps(form)} className="panel mt-6 space-y-4">
        <input type="hidden" name="method" value={method} />
        <FormErrors errors={form.errors} />
        {recovery ? (
          <Field
            label="recovery code"
            errors={fields.recovery_code.errors}
            inputProps={{ ...getInputProps(fields.recovery_code, { type: "text" }), autoComplete: "off", spellCheck: false, maxLength: 24, autoFocus: true }}
          />
        ) : (
          <Field
            label="code"
            errors={fields.code.errors}
            inputProps={{
              ...getInputProps(fields.code, { type: "text" }),
              inputMode: "numeric",
              autoComplete: "one-time-code",
              maxLength: 6,
              pattern: "[0-9]{6}",
              autoFocus: true,
            }}
          />
        )}
        <button type="submit" className="btn-primary w-full" disabled={navigation.state === "submitting"}>
          verify
        </button>
        <p className="flex flex-wrap justify-between gap-2 text-sm">
          {recovery ? <Link to="/login/2fa">use the authenticator app</Link> : <Link to="/login/2fa?method=recovery">use a recovery code</Link>}
          {recovery ? <Link to="/login/2fa?method=lost">lost your codes too?</Link> : null}
          <Link to="/login">start over</Link>
        </p>
      </Form>
    </>
  );
}

function LostAuthenticator({ sent, error }: { sent?: string; error?: string }) {
  const navigation = useNavigation();
  return (
    <>
      <h1 className="prompt text-2xl font-bold">./2fa --lost</h1>
      <p className="mt-1 text-sm text-zinc-500">Lost your authenticator app and your recovery codes?</p>
      <Form method="post" className="panel mt-6 space-y-4" data-testid="twofa-lost">
        <input type="hidden" name="method" value="lost" />
        <p className="text-sm">
          We can mail a link to this account's verified e-mail address. Following it turns 2FA off three days later, unless someone signs in with a code before
          then: if someone else knows your password, that gives you time to notice. An administrator can also reset 2FA for you.
        </p>
        {sent ? (
          <p className="alert-ok" role="status" data-testid="twofa-lost-sent">
            {sent}
          </p>
        ) : (
          <>
            {error ? (
              <p className="alert-error" role="alert">
                {error}
              </p>
            ) : null}
            <button type="submit" className="btn-primary w-full" disabled={navigation.state === "submitting"}>
              mail me the link
            </button>
          </>
        )}
        <p className="flex flex-wrap justify-between gap-2 text-sm">
          <Link to="/login/2fa?method=recovery">use a recovery code</Link>
          <Link to="/login">start over</Link>
        </p>
      </Form>
    </>
  );
}
