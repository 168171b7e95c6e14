// Every rate limit of the accounts service, in one place: several are shared between parts
// (the sign-in's per-(account, address) allowance also bounds password changes; the known-address
// rule spares the owner in both the password and the second-factor steps of a sign-in).

// Sign-in attempts are counted BEFORE the password hash is computed, all limits in one
// synchronous step (limiter.consumeAll): parallel guesses cannot all pass a check made before
// any of them was counted. A right password gives its counts back.
// - per address: a flood from one address is stopped;
// - per (account, address): a few typos, then that address waits;
// - per account, from any address: guessing spread over many addresses is slowed to
//   LOGIN_PER_ACCOUNT.max an hour. So that this cannot become a way to lock the owner out,
//   it does not apply from an address that completed a sign-in to the account in the last 30
//   days (KNOWN_ADDRESS): an attacker can make new addresses wait (at most the window, an hour,
//   after the attack stops), never the owner's usual ones. A delay that grows would not help
//   more: parallel requests would queue behind it, and the owner with them.
export const LOGIN_PER_IP = { max: 30, windowSeconds: 15 * 60 };
export const LOGIN_PER_ACCOUNT_IP = { max: 5, windowSeconds: 15 * 60 };
export const LOGIN_PER_ACCOUNT = { max: 20, windowSeconds: 3600 };
export const KNOWN_ADDRESS = { max: 1, windowSeconds: 30 * 24 * 3600 };
export const REGISTER_PER_IP = { max: 10, windowSeconds: 3600 };
export const RESEND_PER_USER = { max: 3, windowSeconds: 3600 };
/** TOTP codes from a signed-in user (2FA set-up, step-up): only the owner gets here. */
export const TOTP_PER_USER = { max: 10, windowSeconds: 15 * 60 };
// TOTP codes at sign-in, where whoever knows the password can send codes: counted per (account,
// address), so an attacker's wrong codes do not use up the owner's, plus an account-wide
// ceiling against many addresses that, like the password one, spares known addresses.
export const TOTP_LOGIN_PER_ACCOUNT_IP = { max: 10, windowSeconds: 15 * 60 };
export const TOTP_LOGIN_PER_ACCOUNT = { max: 30, windowSeconds: 15 * 60 };
/** Password confirmations before sensitive changes: enough for typos, too few for guessing. */
export const STEP_UP_PER_USER = { max: 10, windowSeconds: 15 * 60 };
/** Links for a lost authenticator (lost-authenticator.ts): a few a day, each mailed to the owner. */
export const REMOVAL_PER_ACCOUNT = { max: 3, windowSeconds: 24 * 3600 };
// The data export (export.ts): a document a player needs now and then, not in a loop.
export const EXPORT_PER_USER = { max: 10, windowSeconds: 3600 };
