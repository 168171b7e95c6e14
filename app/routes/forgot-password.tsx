// /forgot-password: an e-mail form; the answer is the same whether or not an account has the
// address (the API's words), so the page tells nobody who is registered.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseForm } from "#app/lib/parse-form.ts";
import { data, Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/forgot-password";
import { getWeb, requireAnonymous } from "#app/.server/guards.ts";
import { Field, FormErrors } from "#app/components/field.tsx";
import { forgotPasswordSchema } from "#app/lib/account-forms.ts";

export function meta() {
  return [{ title: "forgot password | faultline" }];
}

export function loader({ context }: Route.LoaderArgs) {
  requireAnonymous(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAnonymous(context);
  const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ reply: submission.reply(), sent: null }, { status: 400 });
  const res = await getWeb(context).api.requestPasswordReset({ body: { email: submission.value.email } });
  if (!res.ok) return data({ reply: submission.reply({ formErrors: [res.detail || "Failed to send the link"] }), sent: null }, { status: res.status });
  return { reply: submission.reply({ resetForm: true }), sent: res.data.message };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: navigation.state === "idle" ? actionData?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: forgotPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";
  return (
    <section className="mx-auto max-w-md">
      <h1 className="prompt text-2xl font-bold">./forgot-password.sh</h1>
      <p className="mt-1 text-sm text-zinc-500">Enter the e-mail address of your account: we send a link to choose a new password.</p>
      <div className="panel mt-6 space-y-4">
        {actionData?.sent ? (
          <div className="alert-ok" role="status" data-testid="forgot-sent">
            {actionData.sent}
          </div>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors errors={form.errors} />
          <Field
            label="email"
            errors={fields.email.errors}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
          />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "working..." : "send reset link"}
          </button>
        </Form>
        <p className="text-center text-sm">
          <Link to="/login">Back to login</Link>
        </p>
      </div>
    </section>
  );
}
