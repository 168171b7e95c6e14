// /login and /register: one screen, two modes. OAuth first, then the form.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseForm } from "#app/lib/parse-form.ts";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/login";
import { AuthFailure, authenticatorFor, completeLogin, UNEXPECTED } from "#app/.server/auth.ts";
import { getWeb, requireAnonymous, safeRedirect } from "#app/.server/guards.ts";
import { Field, FormErrors } from "#app/components/field.tsx";
import { loginSchema, registerSchema, registrationError } from "#app/lib/forms.ts";

const isRegister = (request: Request) => new URL(request.url).pathname.startsWith("/register");

export const meta: Route.MetaFunction = ({ location }) => [{ title: location.pathname.startsWith("/register") ? "register | faultline" : "login | faultline" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAnonymous(context);
  const web = getWeb(context);
  const providers = await web.api.listOAuthProviders();
  const flash = web.session.get("flash");
  if (flash) {
    web.session.unset("flash");
    web.touch();
  }
  return {
    mode: isRegister(request) ? ("register" as const) : ("login" as const),
    redirectTo: new URL(request.url).searchParams.get("redirectTo") ?? "",
    providers: providers.ok ? providers.data : { github: { enabled: false }, google: { enabled: false } },
    flash,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAnonymous(context);
  const web = getWeb(context);
  const formData = await request.clone().formData();

  if (isRegister(request)) {
    const submission = parseWithZod(formData, { schema: registerSchema });
    if (submission.status !== "success") {
      return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
    }
    const { username, email, password } = submission.value;
    const res = await web.api.register({ body: { username, email, password } });
    if (!res.ok) {
      return data(submission.reply({ formErrors: [registrationError(res.status, res.detail)], hideFields: ["password", "confirmPassword"] }), {
        status: res.status === 409 ? 409 : 400,
      });
    }
    web.session.set("registeredEmail", res.data.email);
    web.touch();
    throw redirect("/register/success");
  }

  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  try {
    const result = await authenticatorFor(web).authenticate("password", request);
    throw redirect(completeLogin(web, result, safeRedirect(submission.value.redirectTo)));
  } catch (e) {
    if (e instanceof Response) throw e;
    const message = e instanceof AuthFailure ? e.message : UNEXPECTED;
    return data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status: 401 });
  }
}

function OAuthButton({ provider, enabled, redirectTo }: { provider: "github" | "google"; enabled: boolean; redirectTo: string }) {
  const label = provider === "github" ? "Continue with GitHub" : "Continue with Google";
  if (!enabled) {
    return (
      <button type="button" className="btn-ghost w-full flex-col gap-0" disabled title={`${provider} sign-in is not configured on this server`}>
        {label}
        <span className="text-xs font-normal">(not configured on this server)</span>
      </button>
    );
  }
  const q = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <a className="btn-ghost w-full" href={`/auth/oauth/${provider}/login${q}`} data-testid={`oauth-${provider}`}>
      {label}
    </a>
  );
}

export default function LoginScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, providers, redirectTo, flash } = loaderData;
  const register = mode === "register";
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: mode,
    lastResult: navigation.state === "idle" ? actionData : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: register ? registerSchema : loginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";
  const toggleQuery = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";

  return (
    <section className="mx-auto max-w-md">
      <h1 className="prompt text-2xl font-bold">{register ? "./register.sh" : "./login.sh"}</h1>
      <p className="mt-1 text-sm text-zinc-500">{register ? "Create your faultline account." : "Sign in to continue."}</p>

      <div className="panel mt-6 space-y-3">
        <OAuthButton provider="github" enabled={providers.github.enabled} redirectTo={redirectTo} />
        <OAuthButton provider="google" enabled={providers.google.enabled} redirectTo={redirectTo} />
        <p className="py-2 text-center text-xs text-zinc-500">── or use {register ? "a password" : "your password"} ──</p>

        {flash ? (
          <div className="alert-error" role="alert">
            {flash}
          </div>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormErrors errors={form.errors} />
          <Field
            label={register ? "username" : "username or email"}
            errors={fields.username.errors}
            inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "username", autoFocus: true }}
          />
          {register && (
            <Field label="email" errors={fields.email.errors} inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }} />
          )}
          <Field
            label="password"
            errors={fields.password.errors}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: register ? "new-password" : "current-password" }}
          />
          {register && (
            <Field
              label="confirm password"
              errors={fields.confirmPassword.errors}
              inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
            />
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "working..." : register ? "create account" : "login"}
          </button>
        </Form>
        {!register ? (
          <p className="text-center text-sm">
            <Link to="/forgot-password" data-testid="forgot-password">
              Forgot password?
            </Link>
          </p>
        ) : null}
        <p className="pt-2 text-center text-sm">
          {register ? "Already have an account? " : "New here? "}
          <Link to={(register ? "/login" : "/register") + toggleQuery} data-testid="mode-toggle">
            {register ? "login" : "register"}
          </Link>
        </p>
      </div>
    </section>
  );
}
