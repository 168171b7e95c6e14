// The whole account story in Chromium with JavaScript: register → the verification mail
// arrives at the SMTP server → the link verifies → login → 2FA set-up with a code computed
// from the shown secret → logout → login asks for the code → SSH key saved, previewed, deleted.
import { expect, test, type Page } from "@playwright/test";
import {
  createUser,
  expectSignedInAs,
  generateSshKey,
  loginViaForm,
  logout,
  newUser,
  screenshots,
  signShownCode,
  totpCode,
  verificationLink,
  waitForMail,
} from "./support.ts";

const DISABLE_2FA = "Are you sure you want to disable 2FA? This will make your account less secure.";
const DELETE_KEY = "Are you sure you want to delete your SSH public key?";

/** Answers the next window.confirm, after checking its text. */
function onNextConfirm(page: Page, message: string, accept: boolean) {
  page.once("dialog", async (dialog) => {
    expect(dialog.type()).toBe("confirm");
    expect(dialog.message()).toBe(message);
    await (accept ? dialog.accept() : dialog.dismiss());
  });
}

test("register, verify by e-mail, 2FA, login with the code, SSH key", async ({ page }) => {
  test.setTimeout(120_000);
  const user = newUser("journey");
  let secret = "";
  let setupCode = "";

  await test.step("register", async () => {
    await page.goto("/login");
    await page.getByTestId("mode-toggle").click();
    await expect(page).toHaveURL("/register");
    await page.getByLabel("username").fill(user.username);
    await page.getByLabel("email").fill(user.email);
    await page.getByLabel("password", { exact: true }).fill(user.password);
    await page.getByLabel("confirm password").fill(user.password);
    await page.getByRole("button", { name: "create account" }).click();
    await expect(page).toHaveURL("/register/success");
    await expect(page.getByTestId("registered-email")).toHaveText(user.email);
  });

  await test.step("the verification mail arrives and its link verifies", async () => {
    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe("Verify your faultline e-mail address");
    expect(mail.text).toContain(`Hello ${user.username},`);
    await page.goto(verificationLink(mail));
    await expect(page.getByRole("heading", { name: "Email Verified Successfully!" })).toBeVisible();
    await page.getByRole("link", { name: "Continue to Login" }).click();
    await expect(page).toHaveURL("/login");
  });

  await test.step("login", async () => {
    await loginViaForm(page, user, "");
    await expect(page).toHaveURL("/profile");
    await expectSignedInAs(page, user.username);
    await expect(page.getByTestId("unverified-notice")).toHaveCount(0);
  });

  await test.step("set up 2FA with a code computed from the shown secret", async () => {
    await page.goto("/profile/settings");
    await page.getByRole("link", { name: "Security", exact: true }).click();
    await expect(page).toHaveURL("/profile/settings?tab=security");
    // Turning it on asks for the password first (a stolen session alone cannot).
    await page.getByTestId("twofa-enable").getByLabel("Current password").fill(user.password);
    await page.getByRole("button", { name: "Enable 2FA" }).click();
    await expect(page.getByAltText("2FA QR code")).toBeVisible();
    secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);

    const input = page.getByLabel("6-digit code");
    const verify = page.getByRole("button", { name: "Verify" });
    await input.fill("12345");
    await expect(verify).toBeDisabled();
    await input.fill("1234567");
    await expect(input).toHaveValue("123456"); // limited to 6 characters
    setupCode = totpCode(secret);
    await input.fill(setupCode);
    await expect(verify).toBeEnabled();
    await verify.click();
    await expect(page.getByText("2FA is enabled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Disable 2FA" })).toBeVisible();
  });

  await test.step("logout; login now asks for the code", async () => {
    await logout(page);
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/login/2fa");

    // The code just used at set-up is not accepted a second time, nor is a wrong one.
    const code = page.getByLabel("code");
    await code.fill(setupCode);
    await page.getByRole("button", { name: "verify" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("Invalid verification code");
    await expect(page).toHaveURL("/login/2fa");
    await code.fill("000000" === setupCode ? "111111" : "000000");
    await page.getByRole("button", { name: "verify" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("Invalid verification code");

    // The next 30 s step's code is within the allowed drift and not used yet.
    await code.fill(totpCode(secret, 1));
    await page.getByRole("button", { name: "verify" }).click();
    await expect(page).toHaveURL("/profile");
    await expectSignedInAs(page, user.username);
  });

  await test.step("save, preview and delete an SSH key", async () => {
    const key = generateSshKey(`${user.username}@laptop`);
    await page.goto("/profile/settings?tab=security");
    const textarea = page.getByLabel("SSH public key");
    const save = page.getByRole("button", { name: "Save key" });
    await expect(save).toBeDisabled();
    await textarea.fill("   ");
    await expect(save).toBeDisabled();
    await textarea.fill(`  ${key.publicKey}\n`);
    // Someone else's signature (a key of theirs over the shown code) does not prove this key.
    await signShownCode(page, generateSshKey("someone@else").file);
    await save.click();
    await expect(page.getByTestId("ssh-error")).toHaveText(
      "The signature was not made with this key: sign the code with the private key that belongs to the public key you entered.",
    );
    // The key's own signature of the code shown does.
    await signShownCode(page, key.file);
    await screenshots(page, "settings-ssh-key-proof");
    await save.click();

    const preview = page.getByTestId("ssh-key-preview");
    await expect(preview).toBeVisible();
    await expect(preview).toContainText("ssh-ed25519");
    await page.reload();
    await expect(page.getByTestId("ssh-key-preview")).toContainText("ssh-ed25519");

    // The profile no longer asks for a key.
    await page.goto("/profile");
    await expect(page.getByText("An SSH key is required to access challenge environments.")).toHaveCount(0);

    // Delete needs the current password (step-up), and asks first; "cancel" keeps the key.
    await page.goto("/profile/settings?tab=security");
    const section = page.getByTestId("ssh-section");
    onNextConfirm(page, DELETE_KEY, true);
    await section.getByRole("button", { name: "Delete key" }).click();
    await expect(section.getByTestId("ssh-delete-error")).toHaveText("Confirm with your current password or a code from your authenticator app");
    await section.getByLabel("Current password").fill(user.password);
    onNextConfirm(page, DELETE_KEY, false);
    await section.getByRole("button", { name: "Delete key" }).click();
    await expect(page.getByTestId("ssh-key-preview")).toBeVisible();
    onNextConfirm(page, DELETE_KEY, true);
    await section.getByRole("button", { name: "Delete key" }).click();
    await expect(page.getByTestId("ssh-key-preview")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save key" })).toBeVisible();
  });

  await test.step("disable 2FA: only with the current password, after confirming; login no longer asks for a code", async () => {
    const section = page.getByTestId("twofa-section");
    const disable = section.getByTestId("twofa-disable");
    // Neither password nor code: refused before anything is sent (step-up).
    onNextConfirm(page, DISABLE_2FA, true);
    await section.getByRole("button", { name: "Disable 2FA" }).click();
    await expect(section.getByTestId("twofa-disable-error")).toHaveText("Confirm with your current password or a code from your authenticator app");
    // A wrong password: the server says so, 2FA stays on.
    await disable.getByLabel("Current password").fill("not my password");
    onNextConfirm(page, DISABLE_2FA, true);
    await section.getByRole("button", { name: "Disable 2FA" }).click();
    await expect(section.getByTestId("twofa-error")).toHaveText("Current password is incorrect");
    await expect(page.getByText("2FA is enabled")).toBeVisible();
    // "Cancel" in the dialog keeps it on.
    await disable.getByLabel("Current password").fill(user.password);
    onNextConfirm(page, DISABLE_2FA, false);
    await section.getByRole("button", { name: "Disable 2FA" }).click();
    await expect(page.getByText("2FA is enabled")).toBeVisible();
    onNextConfirm(page, DISABLE_2FA, true);
    await section.getByRole("button", { name: "Disable 2FA" }).click();
    await expect(page.getByRole("button", { name: "Enable 2FA" })).toBeVisible();
    await logout(page);
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/profile");
  });
});

test("keys that are not acceptable public keys are refused with the server's reason", async ({ page }) => {
  // An API-made user: this test is about the form, not the sign-up.
  const user = await createUser({ prefix: "badkey" });
  await loginViaForm(page, user);
  await page.goto("/profile/settings?tab=security");
  const textarea = page.getByLabel("SSH public key");
  const error = page.getByRole("alert").filter({ hasText: /SSH public key|RSA keys/ });

  // Whatever the key, a signature block is needed first; the key's own problem is what is told.
  await textarea.fill("ssh-ed25519 not-really-a-key me@host");
  await signShownCode(page, generateSshKey("other@host").file);
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(error).toContainText("The SSH public key could not be read");

  await page.getByLabel("SSH public key").fill(generateSshKey("small@host", { t: "rsa", bits: 1024 }).publicKey);
  await signShownCode(page, generateSshKey("other@host").file);
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(error).toContainText("RSA keys must be at least 2048 bits");
  await expect(page.getByTestId("ssh-key-preview")).toHaveCount(0);

  // An RSA key of 3072 bits is fine.
  const big = generateSshKey("big@host", { t: "rsa", bits: 3072 });
  await page.getByLabel("SSH public key").fill(big.publicKey);
  await expect(page.getByTestId("ssh-sign-command")).toContainText("-f ~/.ssh/id_rsa");
  await signShownCode(page, big.file);
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(page.getByTestId("ssh-key-preview")).toContainText("ssh-rsa");
});
