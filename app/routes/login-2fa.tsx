// The second step of a login for accounts with two-factor authentication on.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseForm } from "../lib/parse-form.ts";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "../components/link.tsx";
import type { Route } from "./+types/login-2fa";
import { completeLogin } from "../.server/auth.ts";
import { getWeb, requireAnonymous, safeRedirect } from "../.server/guards.ts";
import { Field, FormErrors } from "../components/field.tsx";
import { secondFactorSchema } from "../lib/forms.ts";

export function meta() {
  return [{ title: "two-factor | faultline" }];
}

function pending(context: Route.LoaderArgs["context"]) {
  requireAnonymous(context);
  const web = getWeb(context);
  const mfa = web.session.get("mfa");
  if (!mfa || mfa.expires < Date.now()) {
    web.session.unset("mfa");
    web.session.set("flash", "The sign-in attempt expired. Please sign in again.");
    web.touch();
    throw redirect("/login");
  }
  return { web, mfa };
}

export function loader({ context }: Route.LoaderArgs) {
  pending(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { web, mfa } = pending(context);
  const submission = parseWithZod(await request.formData(), { schema: secondFactorSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const res = await web.api.loginSecondFactor({ mfa_token: mfa.token, code: submission.value.code });
  if (!res.ok) {
    if (res.status === 401 && res.detail !== "Invalid verification code") {
      web.session.unset("mfa");
      web.session.set("flash", res.detail);
      web.touch();
      throw redirect("/login");
    }
    // hideFields, not resetForm: conform's resetForm drops formErrors, and the message would vanish.
    return data(submission.reply({ formErrors: [res.detail || "Invalid verification code"], hideFields: ["code"] }), { status: res.status });
  }
  throw redirect(completeLogin(web, res.data, safeRedirect(mfa.redirectTo)));
}

export default function SecondFactor({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: navigation.state === "idle" ? actionData : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: secondFactorSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <section className="mx-auto max-w-md">
      <h1 className="prompt text-2xl font-bold">./2fa --verify</h1>
      <p className="mt-1 text-sm text-zinc-500">Enter the 6-digit code from your authenticator app.</p>
      <Form method="post" {...getFormProps(form)} className="panel mt-6 space-y-4">
        <FormErrors errors={form.errors} />
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
        <button type="submit" className="btn-primary w-full" disabled={navigation.state === "submitting"}>
          verify
        </button>
        <p className="text-center text-sm">
          <Link to="/login">start over</Link>
        </p>
      </Form>
    </section>
  );
}
