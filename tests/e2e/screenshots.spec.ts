// Full-page screenshots of the account pages at desktop (1280) and phone (390) widths, into
// screenshots/ (ignored by git): what a person sees is the product, so people look at these.
import { expect, test } from "@playwright/test";
import { api, createUser, loginViaForm, newUser, screenshots, verificationLink, waitForMail } from "./support.ts";

test("account pages at desktop and phone widths", async ({ page }) => {
  test.setTimeout(90_000);

  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "./login.sh" })).toBeVisible();
  await screenshots(page, "login");

  // The register screen with its validation messages beside the fields.
  await page.goto("/register");
  await page.getByRole("button", { name: "create account" }).click();
  await expect(page.getByText("Please fill in all required fields").first()).toBeVisible();
  await screenshots(page, "register-errors");

  const user = newUser("shots");
  await page.goto("/register");
  await page.getByLabel("username").fill(user.username);
  await page.getByLabel("email").fill(user.email);
  await page.getByLabel("password", { exact: true }).fill(user.password);
  await page.getByLabel("confirm password").fill(user.password);
  await screenshots(page, "register");
  await page.getByRole("button", { name: "create account" }).click();
  await expect(page).toHaveURL("/register/success");
  await screenshots(page, "register-success");

  await page.goto(verificationLink(await waitForMail(user.email)));
  await expect(page.getByRole("heading", { name: "Email Verified Successfully!" })).toBeVisible();
  await screenshots(page, "verify-email-success");
  await page.goto("/verify-email?token=not-a-token");
  await expect(page.getByRole("heading", { name: "Verification Failed" })).toBeVisible();
  await screenshots(page, "verify-email-failure");

  await loginViaForm(page, { username: user.username, password: "wrong-password" });
  await expect(page.getByTestId("form-error")).toBeVisible();
  await screenshots(page, "login-error");

  await loginViaForm(page, user, "");
  await expect(page).toHaveURL("/profile");
  await screenshots(page, "profile");

  for (const tab of ["Profile", "Security", "Notifications"]) {
    await page.goto("/profile/settings");
    await page.getByRole("link", { name: tab, exact: true }).click();
    await expect(page).toHaveURL(`/profile/settings?tab=${tab.toLowerCase()}`);
    await screenshots(page, `settings-${tab.toLowerCase()}`);
  }
  await page.goto("/profile/settings?tab=security");
  await page.getByTestId("twofa-enable").getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Enable 2FA" }).click();
  await expect(page.getByAltText("2FA QR code")).toBeVisible();
  await screenshots(page, "settings-security-2fa-setup");

  await page.goto("/unauthorized");
  await screenshots(page, "unauthorized");

  const res = await page.goto("/this/does/not/exist");
  expect(res?.status()).toBe(404);
  await screenshots(page, "not-found");
});

test("the OAuth error page at desktop and phone widths", async ({ page }) => {
  await page.goto("/auth/oauth/github/callback?code=x&state=not-issued");
  await expect(page.getByRole("link", { name: "Return to Login" })).toBeVisible();
  await screenshots(page, "oauth-callback-error");
  // The other user kind on the profile: someone else's public profile.
  const other = await createUser({ prefix: "public" });
  expect((await api("GET", `/users/${other.username}`)).status).toBe(200);
  await page.goto(`/profile/${other.username}`);
  await expect(page.getByRole("heading", { name: new RegExp(other.username) })).toBeVisible();
  await screenshots(page, "profile-public");
});
