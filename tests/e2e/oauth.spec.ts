// GitHub and Google sign-in in the browser, against the real OAuth2 server on loopback
// (tests/support/oauth-provider.ts): new accounts, linking by verified e-mail, a forged state,
// and replays of a callback and of a code. All OAuth tests live in this one file: the provider's
// "next identity" is shared, and tests of one file run one after another.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createUser, expectSignedInAs, loginViaForm, logout, nextOAuthProfile, oauthStats, unique } from "./support.ts";

const LABEL = { github: "GitHub", google: "Google" } as const;
type Provider = keyof typeof LABEL;

/** Clicks "Continue with …" on /login and returns the callback URL the provider sent the browser to. */
async function signInWith(page: Page, provider: Provider): Promise<string> {
  await page.goto("/login");
  const callback = page.waitForRequest((r) => r.url().includes(`/auth/oauth/${provider}/callback?`) && r.isNavigationRequest());
  await page.getByRole("link", { name: `Continue with ${LABEL[provider]}` }).click();
  return (await callback).url();
}

/**
 * Rewrites where the provider sends the browser back to. Playwright does not route requests
 * that are redirects, so this catches faultline's /auth/oauth/{provider}/login answer (whose
 * session cookie the browser keeps), lets the real provider answer its /authorize URL, and
 * sends the browser straight to the rewritten callback.
 */
async function rewriteProviderRedirect(context: BrowserContext, provider: Provider, rewrite: (back: URL) => void) {
  await context.route(`**/auth/oauth/${provider}/login*`, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const authorize = response.headers()["location"]!;
    const answer = await fetch(authorize, { redirect: "manual" });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get("location")!);
    rewrite(back);
    await route.fulfill({ response, headers: { ...response.headers(), location: back.toString() } });
  });
}

async function expectSignedOut(page: Page) {
  await page.goto("/profile");
  await expect(page).toHaveURL("/login?redirectTo=%2Fprofile");
}

for (const provider of ["github", "google"] as const) {
  test.describe(`${LABEL[provider]} sign-in`, () => {
    test("a new user lands on /profile signed in, with a verified account", async ({ page }) => {
      const seed = unique(provider === "github" ? "gh" : "gg");
      const profile = await nextOAuthProfile(
        provider,
        provider === "github"
          ? { login: seed, name: "Octo Cat", email: `${seed}@users.example.test` }
          : { name: "Goo Gle", email: `${seed}@gmail.example.test` },
      );
      const before = await oauthStats();
      await signInWith(page, provider);
      await expect(page.getByRole("heading", { name: `Signed in with ${LABEL[provider]}` })).toBeVisible();
      await expect(page).toHaveURL("/profile", { timeout: 10_000 });
      // GitHub usernames come from the login, Google ones from the e-mail's local part.
      await expectSignedInAs(page, seed);
      await expect(page.getByTestId("unverified-notice")).toHaveCount(0);
      const after = await oauthStats();
      expect(after.tokenIssued - before.tokenIssued).toBe(1);
      expect(profile.email).toContain(seed);
    });

    test("an existing password account with the same verified e-mail is linked, not duplicated", async ({ page }) => {
      const user = await createUser({ prefix: `link${provider.slice(0, 2)}` });
      await nextOAuthProfile(provider, {
        login: unique("octo"),
        name: "Linked Person",
        email: user.email.toUpperCase(),
        emailVerified: true,
      });
      await signInWith(page, provider);
      await expect(page).toHaveURL("/profile", { timeout: 10_000 });
      await expectSignedInAs(page, user.username);

      // The password still works for an account whose e-mail was already verified.
      await logout(page);
      await loginViaForm(page, user);
      await expect(page).toHaveURL("/profile");

      // The security tab lists the provider as connected.
      await page.goto("/profile/settings?tab=security");
      const row = page
        .getByRole("region", { name: /Connected Accounts/ })
        .getByRole("listitem")
        .filter({ hasText: LABEL[provider] });
      await expect(row).toContainText("Connected");
      await expect(row).not.toContainText(/not connected/i);
    });

    test("an e-mail the provider does not vouch for is not linked to an existing account", async ({ page }) => {
      const user = await createUser({ prefix: `nolink${provider.slice(0, 2)}` });
      await nextOAuthProfile(provider, { login: unique("mallory"), email: user.email, emailVerified: false });
      await signInWith(page, provider);
      await expect(page.getByRole("heading", { name: "Authentication failed" })).toBeVisible();
      // The same text whether or not an account has the address.
      await expect(page.getByRole("alert")).toHaveText(
        `${LABEL[provider]} has not verified the e-mail address of your account. Verify it with ${LABEL[provider]} first, or register with a password.`,
      );
      await expectSignedOut(page);
    });
  });
}

test("a callback whose state is not the one issued is refused as CSRF, and the code is never redeemed", async ({ page, context }) => {
  await nextOAuthProfile("github", { login: unique("forged") });
  await rewriteProviderRedirect(context, "github", (back) => back.searchParams.set("state", "forged-" + back.searchParams.get("state")));
  const before = await oauthStats();
  await signInWith(page, "github");
  await expect(page.getByRole("heading", { name: "Authentication failed" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("Invalid state parameter - possible CSRF attack");
  await expect(page.getByRole("link", { name: "Return to Login" })).toBeVisible();
  // The error page moves on after 3 s; the visitor is not signed in, so /profile sends to /login.
  await expect(page).toHaveURL("/login?redirectTo=%2Fprofile", { timeout: 10_000 });
  expect((await oauthStats()).tokenIssued).toBe(before.tokenIssued);

  // Return to Login works as a button to press as well.
  await page.goto("/auth/oauth/google/callback?code=abc&state=never-issued");
  await expect(page.getByRole("alert")).toHaveText("Invalid state parameter - possible CSRF attack");
  await page.getByRole("link", { name: "Return to Login" }).click();
  await expect(page).toHaveURL("/login");
});

test("a callback without code or state says so", async ({ page }) => {
  await page.goto("/auth/oauth/github/callback?state=only-a-state");
  await expect(page.getByRole("alert")).toHaveText("Missing authorization code or state parameter");
  await page.goto("/auth/oauth/google/callback");
  await expect(page.getByRole("alert")).toHaveText("Missing authorization code or state parameter");
});

test("a replayed callback does not sign anyone in", async ({ page, browser }) => {
  const seed = unique("replay");
  await nextOAuthProfile("github", { login: seed });
  const callbackUrl = await signInWith(page, "github");
  await expect(page).toHaveURL("/profile", { timeout: 10_000 });
  await expectSignedInAs(page, seed);
  const issued = (await oauthStats()).tokenIssued;

  // Loading the same callback again in the same browser shows the outcome without redeeming the code again.
  await page.goto(callbackUrl);
  await expect(page.getByRole("heading", { name: "Signed in with GitHub" })).toBeVisible();
  expect((await oauthStats()).tokenIssued).toBe(issued);

  // After logout, the same callback in the same browser neither signs in again nor claims to.
  await page.goto("/profile");
  await logout(page);
  await page.goto(callbackUrl);
  await expect(page.getByRole("alert")).toHaveText("Invalid state parameter - possible CSRF attack");
  await expect(page.getByRole("heading", { name: "Signed in with GitHub" })).toHaveCount(0);
  await expectSignedOut(page);
  expect((await oauthStats()).tokenIssued).toBe(issued);

  // The same URL (code and state) in another browser: its session never issued that state.
  const other = await browser.newContext();
  try {
    const attacker = await other.newPage();
    await attacker.goto(callbackUrl);
    await expect(attacker.getByRole("alert")).toHaveText("Invalid state parameter - possible CSRF attack");
    await expectSignedOut(attacker);
    expect((await oauthStats()).tokenIssued).toBe(issued);
  } finally {
    await other.close();
  }

  // The same code with a state the attacker's own session did issue: the provider refuses the
  // used code (invalid_grant), so the sign-in fails.
  const third = await browser.newContext();
  try {
    const oldCode = new URL(callbackUrl).searchParams.get("code")!;
    await rewriteProviderRedirect(third, "github", (back) => back.searchParams.set("code", oldCode));
    const attacker = await third.newPage();
    const before = await oauthStats();
    await signInWith(attacker, "github");
    await expect(attacker.getByRole("heading", { name: "Authentication failed" })).toBeVisible();
    await expect(attacker.getByRole("alert")).toHaveText("Authentication failed");
    const after = await oauthStats();
    expect(after.tokenRefused - before.tokenRefused).toBe(1);
    expect(after.tokenIssued).toBe(before.tokenIssued);
    await expectSignedOut(attacker);
  } finally {
    await third.close();
  }
});

// ------------------------------------------------------------------ the callback page's states

/** Holds the callback page's post to its own action a moment, so its processing state can be seen. */
async function slowCallbackPost(page: Page) {
  await page.route(
    (url) => url.pathname.startsWith("/auth/oauth/"),
    async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 800));
      // fallback, not continue: a test's context routes (rewriteProviderRedirect) still apply.
      await route.fallback();
    },
  );
}

test("the callback page shows 'Processing authentication...', then success, and moves on to /profile after 2 s", async ({ page }) => {
  const seed = unique("proc");
  await nextOAuthProfile("github", { login: seed });
  await slowCallbackPost(page);
  await signInWith(page, "github");
  await expect(page.getByTestId("oauth-processing")).toContainText("Processing authentication...");
  await expect(page.getByRole("heading", { name: "Signed in with GitHub" })).toBeVisible();
  const shownAt = Date.now();
  await expect(page).toHaveURL("/profile", { timeout: 10_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1_500);
  await expectSignedInAs(page, seed);
});

test("a code the provider refuses: processing, then the error state, and on after 3 s", async ({ page, context }) => {
  await rewriteProviderRedirect(context, "github", (back) => back.searchParams.set("code", "not-a-code-it-issued"));
  await slowCallbackPost(page);
  const before = await oauthStats();
  await signInWith(page, "github");
  await expect(page.getByTestId("oauth-processing")).toContainText("Processing authentication...");
  await expect(page.getByRole("heading", { name: "Authentication failed" })).toBeVisible();
  const shownAt = Date.now();
  await expect(page.getByRole("alert")).toHaveText("Authentication failed");
  await expect(page.getByText("Redirecting in 3 seconds...")).toBeVisible();
  await expect(page).toHaveURL("/login?redirectTo=%2Fprofile", { timeout: 10_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(2_500);
  const after = await oauthStats();
  expect(after.tokenRefused - before.tokenRefused).toBe(1);
  expect(after.tokenIssued).toBe(before.tokenIssued);
});

test("without JavaScript the callback reloads itself with nojs=1 and the server signs in and redirects", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const seed = unique("nojs");
    await nextOAuthProfile("google", { email: `${seed}@gmail.example.test` });
    const reload = page.waitForRequest((r) => r.url().includes("/auth/oauth/google/callback?") && r.url().includes("nojs=1"));
    await signInWith(page, "google");
    await reload;
    await expect(page).toHaveURL("/profile", { timeout: 10_000 });
    await expectSignedInAs(page, seed);
  } finally {
    await context.close();
  }
});
