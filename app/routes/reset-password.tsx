// /reset-password?token=: the mailed link. The loader asks whether the link is still good; the
// form sets the new password (registration's rules); the API then ends every sign-in.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseForm } from "#app/lib/parse-form.ts";
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/reset-password";
import { getWeb } from "#app/.server/guards.ts";
import { Field, FormErrors } from "#app/components/field.tsx";
import { newPasswordSchema } from "#app/lib/account-forms.ts";

export function meta() {
  return [{ title: "choose a new password | faultline" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, valid: false };
  const res = await getWeb(context).api.checkPasswordReset({ body: { token } });
  return { token, valid: res.ok && res.data.valid };
}

const HIDE = ["new_password", "confirm_password"];

export async function action({ request, context }: Route.ActionArgs) {
  const web = getWeb(context);
  const submission = parseWithZod(await request.formData(), { schema: newPasswordSchema });
  if (submission.status !== "success") return data({ reply: submission.reply({ hideFields: HIDE }), done: null }, { status: 400 });
  const res = await web.api.resetPassword({ body: { token: submission.value.token, new_password: submission.value.new_password } });
  if (!res.ok)
    return data(
      { reply: submission.reply({ formErrors: [res.detail || "Failed to reset the password"], hideFields: HIDE }), done: null },
      { status: res.status },
    );
  // Every sign-in of the account was ended by the API; this browser's too, if it had one.
  if (web.user) web.signOut();
  return { reply: submission.reply({ resetForm: true }), done: res.data.message };
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: navigation.state === "idle" ? actionData?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: newPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  if (actionData?.done) {
    return (
      <section className="panel mx-auto max-w-md" data-testid="reset-done">
        <h1 className="text-2xl font-bold text-emerald-700 dark:text-term-green">Password changed</h1>
        <p className="mt-2">{actionData.done}</p>
        <Link to="/login" className="btn-primary mt-6">
          Continue to Login
        </Link>
      </section>
    );
  }
  if (!loaderData.valid) {
    return (
      <section className="panel mx-auto max-w-md" data-testid="reset-invalid">
        <h1 className="text-2xl font-bold text-red-700 dark:text-term-red">Link invalid or expired</h1>
        <p className="mt-2">This password reset link is invalid or has expired. Ask for a new one.</p>
        <Link to="/forgot-password" className="btn-primary mt-6">
          Ask for a new link
        </Link>
      </section>
    );
  }
  const busy = navigation.state === "submitting";
  return (
    <section className="mx-auto max-w-md">
      <h1 className="prompt text-2xl font-bold">passwd</h1>
      <p className="mt-1 text-sm text-zinc-500">Choose a new password. Every device signed in to your account is signed out.</p>
      <Form method="post" {...getFormProps(form)} className="panel mt-6 space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <FormErrors errors={form.errors} />
        <Field
          label="new password"
          errors={fields.new_password.errors}
          inputProps={{ ...getInputProps(fields.new_password, { type: "password" }), autoComplete: "new-password", autoFocus: true }}
        />
        <Field
          label="confirm new password"
          errors={fields.confirm_password.errors}
          inputProps={{ ...getInputProps(fields.confirm_password, { type: "password" }), autoComplete: "new-password" }}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "working..." : "set new password"}
        </button>
      </Form>
    </section>
  );
}
