// Security tab: the SSH public key used to reach challenge environments. Its states:
// none (input form) -> configured (preview, fingerprint, delete) -> none after deletion.
// Saving proves possession: the page shows a one-time code and the ssh-keygen command that signs
// it, and the signature is pasted with the key (public keys are public; without the proof anyone
// could register someone else's). Deleting asks for the current password or a code when the
// account has either (delete, then save, would replace the key).
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseForm } from "#app/lib/parse-form.ts";
import { Form, useNavigation } from "react-router";
import type { SignedInUser } from "#shared/contract/index.ts";
import { SETTINGS, sshKeyDeleteSchema, sshKeySchema } from "#app/lib/forms.ts";
import { defaultKeyFile, SSH_KEY_NONCE_SECONDS, signCommand } from "#shared/sshkey-rules.ts";
import { Field } from "#app/components/field.tsx";
import { TextAreaField } from "./fields.tsx";
import { ConfirmedAction, DangerSubmit, IntentField, type Outcome, outcomeFor, Section, Status, useBusy, useHydrated } from "./shared.tsx";

export function SshKeySection({ user, nonce, outcome }: { user: SignedInUser; nonce: string | null; outcome?: Outcome }) {
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
          {user.has_password || user.totp_enabled ? (
            <DeleteForm hasPassword={user.has_password} hasTotp={user.totp_enabled} outcome={outcomeFor(mine, "ssh-delete")} />
          ) : (
            <ConfirmedAction
              intent="ssh-delete"
              label="Delete key"
              confirmLabel="Yes, delete key"
              message={SETTINGS.sshDeleteConfirm}
              asking={mine?.intent === "ssh-delete" && !!mine.confirm}
              cancelTo="?tab=security"
              testId="ssh-delete"
            />
          )}
          <Status outcome={mine} testId="ssh" />
        </>
      ) : (
        <SshKeyForm nonce={nonce} outcome={mine} />
      )}
    </Section>
  );
}

function SshKeyForm({ nonce: pageNonce, outcome }: { nonce: string | null; outcome?: Outcome }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = useBusy("ssh-save");
  const [form, fields] = useForm({
    id: "ssh-form",
    lastResult: navigation.state === "idle" ? outcomeFor(outcome, "ssh-save")?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: sshKeySchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const text = typeof fields.ssh_key.value === "string" ? fields.ssh_key.value : "";
  // After a failed save the code the person signed stays (the page has a newer one by then).
  const nonce = (typeof fields.nonce.initialValue === "string" && fields.nonce.initialValue) || pageNonce;
  const command = nonce ? signCommand(nonce, defaultKeyFile(text)) : null;
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
            Paste the contents of your <code>.pub</code> file (ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa of 2048+ bits). Make one with{" "}
            <code>ssh-keygen -t ed25519</code>.
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
      {nonce && command ? (
        <div className="space-y-2" data-testid="ssh-proof">
          <input type="hidden" name={fields.nonce.name} value={nonce} />
          <p className="label">Prove the key is yours</p>
          <p className="text-sm">Sign this one-time code with the private key, where it lives:</p>
          <code
            className="block select-all break-words rounded border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-black dark:text-term-green"
            data-testid="ssh-sign-command"
            data-nonce={nonce}
          >
            {command}
          </code>
          <p className="text-xs text-zinc-500">
            Another key file? Put its path after <code>-f</code>. The code works once, for {SSH_KEY_NONCE_SECONDS / 60} minutes.
          </p>
        </div>
      ) : (
        <p className="alert-error" role="alert">
          No signing code could be made right now: reload the page.
        </p>
      )}
      <TextAreaField
        label="Signature"
        errors={fields.signature.errors ?? fields.nonce.errors}
        hint={<>Paste everything the command printed, from -----BEGIN SSH SIGNATURE----- to -----END SSH SIGNATURE-----.</>}
        textareaProps={{
          ...getTextareaProps(fields.signature),
          rows: 6,
          spellCheck: false,
          autoCapitalize: "off",
          autoCorrect: "off",
          placeholder: "-----BEGIN SSH SIGNATURE-----\n...\n-----END SSH SIGNATURE-----",
        }}
      />
      <button type="submit" className="btn-primary" disabled={blank || busy}>
        Save key
      </button>
      <Status outcome={outcome} testId="ssh" />
    </Form>
  );
}

function DeleteForm({ hasPassword, hasTotp, outcome }: { hasPassword: boolean; hasTotp: boolean; outcome?: Outcome }) {
  const navigation = useNavigation();
  const busy = useBusy("ssh-delete");
  const [form, fields] = useForm({
    id: "ssh-delete-form",
    lastResult: navigation.state === "idle" ? outcome?.reply : undefined,
    onValidate: ({ formData }) => parseForm(formData, { schema: sshKeyDeleteSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="ssh-delete">
      <IntentField intent="ssh-delete" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        To delete or change the key, confirm it is you:{" "}
        {[hasPassword && "your current password", hasTotp && "a code from your authenticator app"].filter(Boolean).join(", or ")}.
      </p>
      {form.errors?.length ? (
        <div className="alert-error" role="alert" data-testid="ssh-delete-error">
          {form.errors[0]}
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {hasPassword ? (
          <Field
            label="Current password"
            errors={fields.current_password.errors}
            inputProps={{ ...getInputProps(fields.current_password, { type: "password" }), id: "ssh-delete-password", autoComplete: "current-password" }}
          />
        ) : null}
        {hasTotp ? (
          <Field
            label={hasPassword ? "or a 6-digit code" : "6-digit code"}
            errors={fields.code.errors}
            inputProps={{
              ...getInputProps(fields.code, { type: "text" }),
              id: "ssh-delete-code",
              inputMode: "numeric",
              autoComplete: "one-time-code",
              maxLength: 6,
            }}
          />
        ) : null}
      </div>
      <DangerSubmit question={SETTINGS.sshDeleteConfirm} busy={busy} noteWithoutJs>
        Delete key
      </DangerSubmit>
    </Form>
  );
}
