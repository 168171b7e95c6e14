// Security tab: the SSH public key used to reach challenge environments. States per spec:
// none (input form) -> configured (preview, fingerprint, delete) -> none after deletion.
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import type { OwnUser } from "../../.server/api-client.ts";
import { SETTINGS, sshKeySchema } from "../../lib/forms.ts";
import { TextAreaField } from "./fields.tsx";
import { ConfirmedAction, IntentField, type Outcome, outcomeFor, Section, Status, useBusy, useHydrated } from "./shared.tsx";

export function SshKeySection({ user, outcome }: { user: OwnUser; outcome?: Outcome }) {
  const mine = outcomeFor(outcome, "ssh-save", "ssh-delete");
  return (
    <Section command="cat ~/.ssh/id_ed25519.pub" title="SSH key" testId="ssh-section">
      {user.has_ssh_key ? (
        <>
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="label">Public key</dt>
              <dd className="break-all rounded bg-zinc-100 px-2 py-1 dark:bg-zinc-900" data-testid="ssh-key-preview">
                {user.ssh_key_preview}
              </dd>
            </div>
            {user.ssh_key_fingerprint ? (
              <div>
                <dt className="label">Fingerprint</dt>
                <dd className="break-all" data-testid="ssh-key-fingerprint">
                  {user.ssh_key_fingerprint}
                </dd>
              </div>
            ) : null}
          </dl>
          <ConfirmedAction
            intent="ssh-delete"
            label="Delete key"
            confirmLabel="Yes, delete key"
            message={SETTINGS.sshDeleteConfirm}
            asking={mine?.intent === "ssh-delete" && !!mine.confirm}
            cancelTo="?tab=security"
            testId="ssh-delete"
          />
          <Status outcome={mine} testId="ssh" />
        </>
      ) : (
        <SshKeyForm outcome={mine} />
      )}
    </Section>
  );
}

function SshKeyForm({ outcome }: { outcome?: Outcome }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = useBusy("ssh-save");
  const [form, fields] = useForm({
    id: "ssh-form",
    lastResult: navigation.state === "idle" ? outcomeFor(outcome, "ssh-save")?.reply : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sshKeySchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const text = typeof fields.ssh_key.value === "string" ? fields.ssh_key.value : "";
  // With JavaScript, Save waits for some text; without, the server checks.
  const blank = hydrated && text.trim() === "";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <IntentField intent="ssh-save" />
      <p className="alert-warn" data-testid="ssh-required">
        {SETTINGS.sshRequired}
      </p>
      <TextAreaField
        label="SSH public key"
        errors={fields.ssh_key.errors}
        hint={
          <>
            Paste the contents of your <code>.pub</code> file (ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa of 2048+
            bits). Make one with <code>ssh-keygen -t ed25519</code>.
          </>
        }
        textareaProps={{
          ...getTextareaProps(fields.ssh_key),
          rows: 4,
          spellCheck: false,
          autoCapitalize: "off",
          autoCorrect: "off",
          placeholder: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... you@host",
        }}
      />
      <button type="submit" className="btn-primary" disabled={blank || busy}>
        Save key
      </button>
      <Status outcome={outcome} testId="ssh" />
    </Form>
  );
}
