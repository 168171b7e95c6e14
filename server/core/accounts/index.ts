// Accounts: registration, e-mail proof, password and second-factor login, profile, settings,
// SSH key, as one service composed of its parts: registration.ts (sign-up, the verification
// link), sign-in.ts (password, second factor, disabled accounts, refresh, logout), twofactor.ts
// (TOTP set-up, on, off), profile.ts (views, profile and notification changes, password change,
// the admin flag) and ssh-keys.ts (the key, with proof of possession). What they share is
// context.ts; every rate limit is limits.ts. No HTTP here: callers pass plain values and get
// plain values or a DomainError.
import { type AccountsDeps, createContext } from "./context.ts";
import { createLostAuthenticator } from "./lost-authenticator.ts";
import { createProfile } from "./profile.ts";
import { createRegistration } from "./registration.ts";
import { createSignIn } from "./sign-in.ts";
import { createSshKeys } from "./ssh-keys.ts";
import { createTwoFactor } from "./twofactor.ts";

export type { AccountsDeps } from "./context.ts";

export function createAccounts(deps: AccountsDeps) {
  const ctx = createContext(deps);
  const registration = createRegistration(ctx);
  const twoFactor = createTwoFactor(ctx);
  const lostAuthenticator = createLostAuthenticator(ctx, twoFactor);
  const signIn = createSignIn(ctx, lostAuthenticator);
  const profile = createProfile(ctx);
  const sshKeys = createSshKeys(ctx);

  return {
    byId: ctx.byId,
    view: ctx.view,
    startLogin: signIn.startLogin,
    confirmIdentity: ctx.confirmIdentity,
    sendVerification: registration.sendVerification,
    register: registration.register,
    usernameReserved: registration.usernameReserved,
    login: signIn.login,
    loginSecondFactor: signIn.loginSecondFactor,
    refresh: signIn.refresh,
    logout: signIn.logout,
    verifyEmail: registration.verifyEmail,
    resendVerification: registration.resendVerification,
    me: profile.me,
    identity: profile.identity,
    publicProfile: profile.publicProfile,
    updateProfile: profile.updateProfile,
    updateNotifications: profile.updateNotifications,
    changePassword: profile.changePassword,
    getSshKey: sshKeys.getSshKey,
    sshKeyNonce: sshKeys.sshKeyNonce,
    setSshKey: sshKeys.setSshKey,
    deleteSshKey: sshKeys.deleteSshKey,
    setupTotp: twoFactor.setupTotp,
    enableTotp: twoFactor.enableTotp,
    disableTotp: twoFactor.disableTotp,
    totpStatus: twoFactor.totpStatus,
    newRecoveryCodes: twoFactor.newRecoveryCodes,
    resetTwoFactorByAdmin: twoFactor.resetByAdmin,
    requestTotpRemoval: lostAuthenticator.requestRemoval,
    confirmTotpRemoval: lostAuthenticator.confirmRemoval,
    /** Resolves when the security notices mailed so far are sent (tests wait for it). */
    mailsSettled: ctx.mails.settled,
    setAdmin: profile.setAdmin,
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
