// Pieces every settings section uses: the action's outcome shape, the section frame, status
// lines, and a destructive button that confirms with window.confirm when JavaScript runs and
// through a second server round trip when it does not.
import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";

/** The operations of the settings action, picked by the hidden `intent` field of each form. */
export const INTENTS = [
  "profile",
  "password",
  "resend-verification",
  "2fa-setup",
  "2fa-verify",
  "2fa-cancel",
  "2fa-codes",
  "2fa-disable",
  "ssh-save",
  "ssh-delete",
  "notifications",
  "email-change",
  "account-delete",
  "token-create",
  "token-revoke",
] as const;
export type Intent = (typeof INTENTS)[number];
export const isIntent = (v: unknown): v is Intent => typeof v === "string" && (INTENTS as readonly string[]).includes(v);

export const TABS = ["profile", "security", "notifications"] as const;
export type Tab = (typeof TABS)[number];

/** What the action answers. Each section shows only the outcome of its own intents. */
export interface Outcome {
  intent: Intent;
  /** A success line for the section. */
  ok?: string;
  /** A failure line for the section (the server's detail, else the fallback in form-texts.ts). */
  error?: string;
  /** Without JavaScript, a destructive post first comes back asking to confirm. */
  confirm?: boolean;
  /** Conform's reply: field errors and the submitted values to show again. */
  reply?: SubmissionResult<string[]>;
  /** 2FA recovery codes, shown with this answer only (never stored for the page). */
  recoveryCodes?: string[];
  /** A personal API token just made, shown with this answer only (never stored for the page). */
  token?: string;
}

export function outcomeFor(outcome: Outcome | undefined, ...intents: Intent[]): Outcome | undefined {
  return outcome && intents.includes(outcome.intent) ? outcome : undefined;
}

export { useHydrated };

/** True while a form with this intent is being posted. */
export function useBusy(...intents: Intent[]): boolean {
  const navigation = useNavigation();
  const intent = navigation.formData?.get("intent");
  return navigation.state === "submitting" && isIntent(intent) && intents.includes(intent);
}

export function IntentField({ intent }: { intent: Intent }) {
  return <input type="hidden" name="intent" value={intent} />;
}

/** A settings block: a shell command above a plain heading, then the content. */
export function Section({ command, title, testId, children }: { command: string; title: string; testId: string; children: ReactNode }) {
  const headingId = `${testId}-heading`;
  return (
    <section className="panel space-y-4" aria-labelledby={headingId} data-testid={testId}>
      <header>
        <p className="prompt text-xs text-zinc-500" aria-hidden="true">
          {command}
        </p>
        <h2 id={headingId} className="mt-1 text-lg font-bold">
          {title}
        </h2>
      </header>
      {children}
    </section>
  );
}

/** The success or failure line of a section's last post. */
export function Status({ outcome, testId }: { outcome?: Outcome; testId: string }) {
  if (outcome?.error) {
    return (
      <div className="alert-error" role="alert" data-testid={`${testId}-error`}>
        {outcome.error}
      </div>
    );
  }
  if (outcome?.ok) {
    return (
      <div className="alert-ok" role="status" data-testid={`${testId}-ok`}>
        {outcome.ok}
      </div>
    );
  }
  return null;
}

/**
 * A destructive form's submit button. With JavaScript, window.confirm(question) asks first;
 * without, there is no dialog: with `noteWithoutJs` the question stands above the button (forms
 * whose other fields already make the person mean it leave it out).
 */
export function DangerSubmit({
  question,
  busy,
  noteWithoutJs = false,
  children,
}: {
  question: string;
  busy: boolean;
  noteWithoutJs?: boolean;
  children: React.ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <>
      {noteWithoutJs && !hydrated ? (
        <p className="alert-warn" role="note">
          {question}
        </p>
      ) : null}
      <button
        type="submit"
        className="btn-danger"
        disabled={busy}
        onClick={(e) => {
          if (hydrated && !window.confirm(question)) e.preventDefault();
        }}
      >
        {children}
      </button>
    </>
  );
}

/**
 * A destructive post. With JavaScript: window.confirm(message), then the post carries
 * confirm=yes. Without: the first post returns `asking`, which renders the message and a
 * second button that posts confirm=yes.
 */
export function ConfirmedAction({
  intent,
  label,
  confirmLabel,
  message,
  asking,
  cancelTo,
  testId,
}: {
  intent: Intent;
  label: string;
  confirmLabel: string;
  message: string;
  asking: boolean;
  cancelTo: string;
  testId: string;
}) {
  const hydrated = useHydrated();
  const busy = useBusy(intent);
  if (asking) {
    return (
      <Form method="post" className="alert-warn space-y-3" data-testid={`${testId}-confirm`}>
        <IntentField intent={intent} />
        <input type="hidden" name="confirm" value="yes" />
        <p role="alert">{message}</p>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-danger" disabled={busy}>
            {confirmLabel}
          </button>
          <Link to={cancelTo} className="btn-ghost">
            Cancel
          </Link>
        </div>
      </Form>
    );
  }
  return (
    <Form method="post">
      <IntentField intent={intent} />
      {hydrated ? <input type="hidden" name="confirm" value="yes" /> : null}
      <DangerSubmit question={message} busy={busy}>
        {label}
      </DangerSubmit>
    </Form>
  );
}
