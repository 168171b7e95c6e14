// /profile/settings: three tabs (Profile, Security with the API tokens, Notifications). Every
// form is a plain <Form method="post"> with a hidden `intent`; the action dispatches on it to one small
// function per operation, each calling the API with the user's token. Without JavaScript the
// post re-renders this page with the outcome; with it, the same outcome arrives as actionData.
// Over 350 lines: one small action function per settings form (fifteen intents, the API tokens'
// two among them) kept beside the one dispatch table and the page that shows their outcomes.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { ACCOUNT_TEXTS, deleteAccountByNameSchema, deleteAccountSchema, emailChangeNoProofSchema, emailChangeSchema } from "#app/lib/account-forms.ts";
import type { Route } from "./+types/settings";
import { requireUser } from "#app/.server/guards.ts";
import { AccountDataSection, EmailSection } from "#app/components/settings/account-section.tsx";
import { ConnectedAccounts } from "#app/components/settings/connected-accounts.tsx";
import { NotificationsSection } from "#app/components/settings/notifications-section.tsx";
import { PasswordSection } from "#app/components/settings/password-section.tsx";
import { ProfileSection } from "#app/components/settings/profile-section.tsx";
import { type Intent, isIntent, type Outcome, TABS, type Tab } from "#app/components/settings/shared.tsx";
import { SshKeySection } from "#app/components/settings/ssh-key-section.tsx";
import { ApiTokensSection } from "#app/components/settings/api-tokens-section.tsx";
import { SettingsTabs } from "#app/components/settings/tabs.tsx";
import { TwoFactorSection } from "#app/components/settings/two-factor-section.tsx";
import { VerificationSection } from "#app/components/settings/verification-section.tsx";
import { NOTIFICATION_KEYS } from "#shared/rules.ts";
import {
  encodeSshKey,
  factorProofSchema,
  personalTokenFormSchema,
  notificationsSchema,
  passwordChangeSchema,
  profileSchema,
  secondFactorSchema,
  SETTINGS,
  sshKeyDeleteSchema,
  sshKeySchema,
  totpSetupSchema,
} from "#app/lib/forms.ts";
import { SSH_PROOF_ERRORS } from "#shared/sshkey-rules.ts";
import { PERSONAL_TOKEN_TEXTS } from "#shared/personal-token-rules.ts";

export function meta() {
  return [{ title: "settings | faultline" }];
}

const tabOf = (request: Request): Tab => {
  const tab = new URL(request.url).searchParams.get("tab");
  return (TABS as readonly string[]).includes(tab ?? "") ? (tab as Tab) : "profile";
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { web, user, api } = requireUser(context, request);
  let totpSetup = web.session.get("totpSetup") ?? null;
  if (totpSetup && user.totp_enabled) {
    // Finished elsewhere (another tab): the pending secret is stale.
    web.session.unset("totpSetup");
    web.touch();
    totpSetup = null;
  }
  const tab = tabOf(request);
  const security = tab === "security";
  const [sshNonce, totpStatus, apiTokens] = await Promise.all([
    security && !user.has_ssh_key ? sshKeyNonce(api) : null,
    security && user.totp_enabled ? api.getTwoFactor().then((r) => (r.ok ? r.data : null)) : null,
    security ? api.listPersonalTokens().then((r) => (r.ok ? r.data.tokens : null)) : null,
  ]);
  return { tab, user, totpSetup, sshNonce, totpStatus, apiTokens };
}

/** A code to sign for the SSH key form (proof of possession); null when the API gives none. */
async function sshKeyNonce(api: ReturnType<typeof requireUser>["api"]): Promise<string | null> {
  const res = await api.getSshKeyNonce();
  return res.ok ? res.data.nonce : null;
}

// ---- action: one function per intent -------------------------------------------------------

type Auth = ReturnType<typeof requireUser>;

const answer = (outcome: Outcome, status = 200) => data(outcome, { status });

/**
 * Reloads the signed-in user into the request's context. With JavaScript the loaders run in a
 * later request anyway; a post without JavaScript renders in this same request, whose user was
 * read before the change.
 */
async function reloadUser(auth: Auth) {
  const me = await auth.api.getMe();
  if (me.ok) auth.web.user = me.data;
}

async function saveProfile(auth: Auth, form: FormData) {
  const intent = "profile";
  const submission = parseWithZod(form, { schema: profileSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  const v = submission.value;
  const theme = v.dark_theme ? "dark" : "light";
  const res = await auth.api.updateProfile({
    body: {
      display_name: v.display_name ?? null,
      bio: v.bio ?? null,
      location: v.location || null,
      theme,
    },
  });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: res.detail || "Failed to save profile" }, res.status);
  auth.web.user = res.data;
  auth.web.session.set("theme", theme);
  auth.web.touch();
  return answer({ intent, reply: submission.reply(), ok: SETTINGS.profileSaved });
}

const PASSWORD_FIELDS = ["current_password", "new_password", "confirm_password"];

async function changePassword(auth: Auth, form: FormData) {
  const intent = "password";
  const submission = parseWithZod(form, { schema: passwordChangeSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply({ hideFields: PASSWORD_FIELDS }) }, 400);
  const { current_password, new_password } = submission.value;
  const res = await auth.api.changePassword({ body: { current_password, new_password } });
  if (!res.ok) {
    return answer({ intent, reply: submission.reply({ hideFields: PASSWORD_FIELDS }), error: res.detail || "Failed to change password" }, res.status);
  }
  // The API ended every other login and handed this one a fresh pair: keep the user signed in.
  auth.web.signIn(res.data);
  return answer({ intent, reply: submission.reply({ resetForm: true }), ok: SETTINGS.passwordChanged });
}

async function resendVerification(auth: Auth) {
  const intent = "resend-verification";
  const res = await auth.api.resendVerification();
  if (!res.ok) return answer({ intent, error: res.detail || "Failed to send verification email" }, res.status);
  return answer({ intent, ok: SETTINGS.verificationSent });
}

/** Turning 2FA on: the current password first when the account has one (decision 017). */
async function startTotpSetup(auth: Auth, form: FormData) {
  const intent = "2fa-setup";
  let body = {};
  if (auth.user.has_password) {
    const submission = parseWithZod(form, { schema: totpSetupSchema });
    const reply = () => submission.reply({ hideFields: ["current_password"] });
    if (submission.status !== "success") return answer({ intent, reply: reply() }, 400);
    body = submission.value;
    const res = await auth.api.setupTwoFactor({ body });
    if (!res.ok) return answer({ intent, reply: reply(), error: res.detail || SETTINGS.totpSetupFailed }, res.status);
    return keepSetup(auth, res.data);
  }
  const res = await auth.api.setupTwoFactor({ body });
  if (!res.ok) return answer({ intent, error: res.detail || SETTINGS.totpSetupFailed }, res.status);
  return keepSetup(auth, res.data);
}

/** Kept server-side in the session so the secret survives posts made without JavaScript. */
function keepSetup(auth: Auth, setup: { secret: string; qr_code_url: string }) {
  auth.web.session.set("totpSetup", { secret: setup.secret, qr: setup.qr_code_url });
  auth.web.touch();
  return answer({ intent: "2fa-setup" });
}

async function verifyTotp(auth: Auth, form: FormData) {
  const intent = "2fa-verify";
  const submission = parseWithZod(form, { schema: secondFactorSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  const setup = auth.web.session.get("totpSetup");
  if (!setup) return answer({ intent, error: "No 2FA setup is in progress. Press Enable 2FA to start again." }, 400);
  const res = await auth.api.enableTwoFactor({ body: { token: submission.value.code, secret: setup.secret } });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: res.detail || SETTINGS.totpInvalid }, res.status);
  auth.web.session.unset("totpSetup");
  auth.web.touch();
  await reloadUser(auth);
  // The recovery codes go out with this answer only: the page shows them once.
  return answer({ intent, ok: res.data.message || "2FA enabled", recoveryCodes: res.data.recovery_codes });
}

function cancelTotpSetup(auth: Auth) {
  auth.web.session.unset("totpSetup");
  auth.web.touch();
  return answer({ intent: "2fa-cancel", ok: "2FA setup cancelled" });
}

const confirmed = (form: FormData) => form.get("confirm") === "yes";

/** The password, or one field with a code from the app or a recovery code, as the API takes it. */
function factorProof(value: { current_password?: string; code?: string }) {
  if (value.current_password !== undefined) return { current_password: value.current_password };
  const code = value.code ?? "";
  return /^\d{6}$/.test(code) ? { code } : { recovery_code: code };
}

/** New recovery codes (the old ones stop working), behind the step-up; shown once. */
async function newRecoveryCodes(auth: Auth, form: FormData) {
  const intent = "2fa-codes";
  const submission = parseWithZod(form, { schema: factorProofSchema });
  const reply = () => submission.reply({ hideFields: ["current_password", "code"] });
  if (submission.status !== "success") return answer({ intent, reply: reply() }, 400);
  const res = await auth.api.renewRecoveryCodes({ body: factorProof(submission.value) });
  if (!res.ok) return answer({ intent, reply: reply(), error: res.detail || "Failed to make new recovery codes" }, res.status);
  return answer({ intent, reply: submission.reply({ resetForm: true }), ok: res.data.message, recoveryCodes: res.data.recovery_codes });
}

/** Step-up: the current password, a current code or a recovery code (any one is enough). */
async function disableTotp(auth: Auth, form: FormData) {
  const intent = "2fa-disable";
  const submission = parseWithZod(form, { schema: factorProofSchema });
  const reply = () => submission.reply({ hideFields: ["current_password", "code"] });
  if (submission.status !== "success") return answer({ intent, reply: reply() }, 400);
  const res = await auth.api.disableTwoFactor({ body: factorProof(submission.value) });
  if (!res.ok) return answer({ intent, reply: reply(), error: res.detail || SETTINGS.totpDisableFailed }, res.status);
  await reloadUser(auth);
  return answer({ intent, reply: submission.reply({ resetForm: true }), ok: res.data.message || "2FA disabled" });
}

async function saveSshKey(auth: Auth, form: FormData) {
  const intent = "ssh-save";
  const submission = parseWithZod(form, { schema: sshKeySchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  const { ssh_key, nonce, signature } = submission.value;
  const res = await auth.api.setSshKey({ body: { ssh_public_key_b64: encodeSshKey(ssh_key), nonce, signature } });
  if (!res.ok) {
    // A used or expired code: the form shows the page's new one (the signature was for the old).
    const stale = res.detail === SSH_PROOF_ERRORS.nonce;
    const reply = submission.reply(stale ? { hideFields: ["nonce", "signature"] } : undefined);
    return answer({ intent, reply, error: res.detail || SETTINGS.sshSaveFailed }, res.status);
  }
  await reloadUser(auth);
  return answer({ intent, ok: res.data.message || "SSH key saved" });
}

/** Step-up (password or code) when the account has either; else a confirmation only. */
async function deleteSshKey(auth: Auth, form: FormData) {
  const intent = "ssh-delete";
  let proof = {};
  if (auth.user.has_password || auth.user.totp_enabled) {
    const submission = parseWithZod(form, { schema: sshKeyDeleteSchema });
    if (submission.status !== "success") return answer({ intent, reply: submission.reply({ hideFields: ["current_password", "code"] }) }, 400);
    proof = submission.value;
  } else if (!confirmed(form)) return answer({ intent, confirm: true });
  const res = await auth.api.deleteSshKey({ body: proof });
  if (!res.ok) return answer({ intent, error: res.detail || SETTINGS.sshDeleteFailed }, res.status);
  await reloadUser(auth);
  return answer({ intent, ok: res.data.message || "SSH key deleted" });
}

async function saveNotifications(auth: Auth, form: FormData) {
  const intent = "notifications";
  const submission = parseWithZod(form, { schema: notificationsSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  // An unchecked box is absent from the form: absent means off.
  const prefs = Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, submission.value[k] ?? false]));
  const res = await auth.api.updateNotifications({ body: prefs });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: res.detail || "Failed to save notifications" }, res.status);
  auth.web.user = res.data;
  return answer({ intent, reply: submission.reply(), ok: SETTINGS.notificationsSaved });
}

/** A link goes to the new address (account basics, server/core/accounts/email-change.ts). */
async function changeEmail(auth: Auth, form: FormData) {
  const intent = "email-change";
  const needsProof = auth.user.has_password || auth.user.totp_enabled;
  const submission = parseWithZod(form, { schema: needsProof ? emailChangeSchema : emailChangeNoProofSchema });
  const reply = () => submission.reply({ hideFields: ["current_password", "code"] });
  if (submission.status !== "success") return answer({ intent, reply: reply() }, 400);
  const res = await auth.api.requestEmailChange({ body: submission.value });
  if (!res.ok) return answer({ intent, reply: reply(), error: res.detail || "Failed to change e-mail" }, res.status);
  return answer({ intent, reply: submission.reply({ resetForm: true }), ok: res.data.message });
}

/** Deletes the account; this browser is signed out and sent to the login page with the news. */
async function deleteAccount(auth: Auth, form: FormData) {
  const intent = "account-delete";
  const needsProof = auth.user.has_password || auth.user.totp_enabled;
  const submission = parseWithZod(form, { schema: needsProof ? deleteAccountSchema : deleteAccountByNameSchema });
  const reply = () => submission.reply({ hideFields: ["current_password", "code"] });
  if (submission.status !== "success") return answer({ intent, reply: reply() }, 400);
  const res = await auth.api.deleteAccount({ body: submission.value });
  if (!res.ok) return answer({ intent, reply: reply(), error: res.detail || "Failed to delete account" }, res.status);
  auth.web.signOut();
  auth.web.session.set("flash", ACCOUNT_TEXTS.deleted);
  throw redirect("/login");
}

/** A personal API token: the answer carries it this once (the page shows it, nothing keeps it). */
async function createApiToken(auth: Auth, form: FormData) {
  const intent = "token-create";
  const submission = parseWithZod(form, { schema: personalTokenFormSchema });
  if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
  const res = await auth.api.createPersonalToken({ body: submission.value });
  if (!res.ok) return answer({ intent, reply: submission.reply(), error: res.detail || "Failed to create the token" }, res.status);
  return answer({ intent, reply: submission.reply({ resetForm: true }), ok: PERSONAL_TOKEN_TEXTS.created, token: res.data.token });
}

async function revokeApiToken(auth: Auth, form: FormData) {
  const intent = "token-revoke";
  const id = form.get("id");
  if (typeof id !== "string" || !id) return answer({ intent, error: PERSONAL_TOKEN_TEXTS.notFound }, 400);
  const res = await auth.api.revokePersonalToken({ params: { id } });
  if (!res.ok) return answer({ intent, error: res.detail || "Failed to revoke the token" }, res.status);
  return answer({ intent, ok: res.data.message });
}

type Answer = ReturnType<typeof answer>;
const HANDLERS: Record<Intent, (auth: Auth, form: FormData) => Answer | Promise<Answer>> = {
  profile: saveProfile,
  password: changePassword,
  "resend-verification": resendVerification,
  "2fa-setup": startTotpSetup,
  "2fa-verify": verifyTotp,
  "2fa-cancel": cancelTotpSetup,
  "2fa-codes": newRecoveryCodes,
  "2fa-disable": disableTotp,
  "ssh-save": saveSshKey,
  "ssh-delete": deleteSshKey,
  notifications: saveNotifications,
  "email-change": changeEmail,
  "account-delete": deleteAccount,
  "token-create": createApiToken,
  "token-revoke": revokeApiToken,
};

export async function action({ request, context }: Route.ActionArgs) {
  const auth = requireUser(context, request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (!isIntent(intent)) throw data("Unknown settings form", { status: 400 });
  return HANDLERS[intent](auth, form);
}

// ---- page -----------------------------------------------------------------------------------

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, user, totpSetup, sshNonce, totpStatus, apiTokens } = loaderData;
  const outcome = actionData as Outcome | undefined;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="prompt text-2xl font-bold">vim ~/.profile</h1>
        <p className="mt-1 text-sm text-zinc-500">
          Settings for <span className="text-zinc-800 dark:text-zinc-200">~{user.username}</span>
        </p>
      </header>
      <SettingsTabs current={tab} />
      {tab === "profile" ? <ProfileSection user={user} outcome={outcome} /> : null}
      {tab === "security" ? (
        <div className="space-y-6">
          {!user.is_verified ? <VerificationSection email={user.email} outcome={outcome} /> : null}
          <PasswordSection user={user} outcome={outcome} />
          <TwoFactorSection enabled={user.totp_enabled} hasPassword={user.has_password} setup={totpSetup} status={totpStatus} outcome={outcome} />
          <SshKeySection user={user} nonce={sshNonce} outcome={outcome} />
          <ApiTokensSection tokens={apiTokens} outcome={outcome} />
          <ConnectedAccounts user={user} />
          <EmailSection user={user} outcome={outcome} />
          <AccountDataSection user={user} outcome={outcome} />
        </div>
      ) : null}
      {tab === "notifications" ? <NotificationsSection user={user} outcome={outcome} /> : null}
    </div>
  );
}
