// Step-up that holds (decision 017) in Chromium: turning 2FA on asks for the password; the
// recovery codes are shown once; one signs in once (a used one is refused); the new factor's
// code does not confirm an e-mail change; the lost-authenticator link is mailed and followed.
// The same enrolment without JavaScript.
import { expect, test, type Page } from "@playwright/test";
import { createUser, expectSignedInAs, loginViaForm, logout, screenshots, totpCode, waitForMail } from "./support.ts";

const FRESH = "A code from an authenticator added in this sign-in or in the last 24 hours cannot confirm this change: confirm with your current password.";

/** Turns 2FA on from the security tab: the password, the shown secret's code; the codes shown. */
async function enrol(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await page.goto("/profile/settings?tab=security");
  const section = page.getByTestId("twofa-section");
  await section.getByTestId("twofa-enable").getByLabel("Current password").fill(password);
  await section.getByRole("button", { name: "Enable 2FA" }).click();
  await expect(page.getByAltText("2FA QR code")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s+/g, "");
  await section.getByLabel("6-digit code").fill(totpCode(secret));
  await section.getByRole("button", { name: "Verify" }).click();
  await expect(section.getByTestId("twofa-state")).toContainText("2FA is enabled");
  const shown = section.getByTestId("recovery-codes");
  await expect(shown).toBeVisible();
  const codes = (await shown.getByRole("listitem").allInnerTexts()).map((c) => c.trim());
  return { secret, codes };
}

/** From the sign-in form to the second step, then a recovery code. */
async function signInWithRecoveryCode(page: Page, user: { username: string; password: string }, code: string) {
  await loginViaForm(page, user);
  await expect(page).toHaveURL("/login/2fa");
  await page.getByRole("link", { name: "use a recovery code" }).click();
  await expect(page).toHaveURL("/login/2fa?method=recovery");
  await page.getByLabel("recovery code").fill(code);
  await page.getByRole("button", { name: "verify" }).click();
}

test("2FA on with the password, recovery codes shown once, each signs in once", async ({ page }) => {
  test.setTimeout(90_000);
  const user = await createUser({ prefix: "stepup" });
  await loginViaForm(page, user);
  await expect(page).toHaveURL("/profile");

  await test.step("turning 2FA on needs the current password", async () => {
    await page.goto("/profile/settings?tab=security");
    const enable = page.getByTestId("twofa-enable");
    await enable.getByRole("button", { name: "Enable 2FA" }).click();
    await expect(enable.getByLabel("Current password")).toHaveAccessibleDescription("Please fill in all required fields");
    await enable.getByLabel("Current password").fill("not my password");
    await enable.getByRole("button", { name: "Enable 2FA" }).click();
    await expect(page.getByTestId("twofa-error")).toHaveText("Current password is incorrect");
    await expect(page.getByAltText("2FA QR code")).toHaveCount(0);
  });

  let codes: string[] = [];
  await test.step("enabled: ten recovery codes, shown this once", async () => {
    ({ codes } = await enrol(page, user.password));
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    await screenshots(page, "settings-2fa-recovery-codes");
    await page.reload();
    await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
    await expect(page.getByTestId("recovery-codes-left")).toHaveText("10 of 10 recovery codes left.");
    await expect(page.locator("body")).not.toContainText(codes[0]!);
  });

  await test.step("a recovery code signs in", async () => {
    await logout(page);
    await signInWithRecoveryCode(page, user, codes[0]!);
    await expect(page).toHaveURL("/profile");
    await expectSignedInAs(page, user.username);
  });

  await test.step("the same code a second time is refused; another one, typed in capitals without dashes, works", async () => {
    await logout(page);
    await signInWithRecoveryCode(page, user, codes[0]!);
    await expect(page.getByTestId("form-error")).toHaveText("Invalid recovery code");
    await expect(page).toHaveURL(/\/login\/2fa/);
    await page.getByLabel("recovery code").fill(codes[1]!.replace(/-/g, "").toUpperCase());
    await page.getByRole("button", { name: "verify" }).click();
    await expect(page).toHaveURL("/profile");
    await page.goto("/profile/settings?tab=security");
    await expect(page.getByTestId("recovery-codes-left")).toHaveText("8 of 10 recovery codes left.");
  });

  await test.step("the new authenticator's code does not confirm an e-mail change; the password does", async () => {
    const email = page.getByTestId("email-section");
    await email.getByLabel("New e-mail address").fill(`moved-${user.username}@mail.example.test`);
    await email.getByLabel("or a 6-digit code").fill("123456");
    await email.getByRole("button", { name: "Change e-mail" }).click();
    await expect(page.getByTestId("email-change-error")).toHaveText(FRESH);
  });
});

test("lost authenticator: the link is mailed from the sign-in page and schedules 2FA off", async ({ page }) => {
  test.setTimeout(90_000);
  const user = await createUser({ prefix: "lost2fa" });
  await loginViaForm(page, user);
  await enrol(page, user.password);
  await logout(page);

  await loginViaForm(page, user);
  await expect(page).toHaveURL("/login/2fa");
  await page.getByRole("link", { name: "use a recovery code" }).click();
  await page.getByRole("link", { name: "lost your codes too?" }).click();
  await expect(page).toHaveURL("/login/2fa?method=lost");
  const since = Date.now();
  await page.getByRole("button", { name: "mail me the link" }).click();
  await expect(page.getByTestId("twofa-lost-sent")).toHaveText(
    "If this account's e-mail address is verified, a link to turn off two-factor authentication is on its way to it. It works once, for one hour.",
  );
  const mail = await waitForMail(user.email, since);
  expect(mail.subject).toBe("Turn off two-factor authentication on your faultline account");
  const link = /https?:\/\/\S+\/login\/2fa\/recover\?token=[^\s"<>]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.getByRole("button", { name: "Turn 2FA off in three days" }).click();
  await expect(page.getByTestId("twofa-removal-scheduled")).toContainText("Two-factor authentication will be turned off on ");
  // The code is still asked for meanwhile.
  await loginViaForm(page, user);
  await expect(page).toHaveURL("/login/2fa");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("2FA goes on with the password and shows the recovery codes once", async ({ page }) => {
    const user = await createUser({ prefix: "nojsrc" });
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/profile");
    const { codes } = await enrol(page, user.password);
    expect(codes).toHaveLength(10);
    await page.goto("/profile/settings?tab=security");
    await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
    await expect(page.getByTestId("recovery-codes-left")).toHaveText("10 of 10 recovery codes left.");
    await logout(page);
    await signInWithRecoveryCode(page, user, codes[2]!);
    await expect(page).toHaveURL("/profile");
  });
});
