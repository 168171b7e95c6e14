// Register, verify and log in with JavaScript turned off: the server renders every state, the
// validation messages appear beside their fields, and plain form posts do the work.
import { expect, test, type Page } from "@playwright/test";
import { api, createUser, newUser, totpCode, verificationLink, waitForMail } from "./support.ts";

test.use({ javaScriptEnabled: false });

const REQUIRED = "Please fill in all required fields";
const INVALID_EMAIL = "Please enter a valid email address";
const PASSWORDS_DIFFER = "Passwords do not match";
const PASSWORD_SHORT = "Password must be at least 8 characters long";

async function fillRegister(page: Page, v: { username?: string; email?: string; password?: string; confirm?: string }) {
  await page.getByLabel("username").fill(v.username ?? "");
  await page.getByLabel("email").fill(v.email ?? "");
  await page.getByLabel("password", { exact: true }).fill(v.password ?? "");
  await page.getByLabel("confirm password").fill(v.confirm ?? "");
  await page.getByRole("button", { name: "create account" }).click();
}

test("the register form shows its validation messages beside the fields, without JavaScript", async ({ page }) => {
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: "./register.sh" })).toBeVisible();

  // The form is novalidate: without JavaScript every check below is the server's answer.
  await expect(page.locator("form#register")).toHaveAttribute("novalidate", "");
  await fillRegister(page, {});
  await expect(page.getByLabel("username")).toHaveAccessibleDescription(REQUIRED);
  await expect(page.getByLabel("email")).toHaveAccessibleDescription(INVALID_EMAIL);
  await expect(page.getByLabel("password", { exact: true })).toHaveAccessibleDescription(REQUIRED);
  await expect(page.getByLabel("username")).toHaveAttribute("aria-invalid", "true");

  await fillRegister(page, { username: "nojs_person", email: "no-at-sign.example", password: "short", confirm: "short" });
  await expect(page.getByLabel("email")).toHaveAccessibleDescription(INVALID_EMAIL);
  await expect(page.getByLabel("password", { exact: true })).toHaveAccessibleDescription(PASSWORD_SHORT);
  await expect(page.getByLabel("username")).toHaveValue("nojs_person");
  await expect(page.getByLabel("username")).not.toHaveAttribute("aria-invalid", "true");

  await fillRegister(page, { username: "nojs_person", email: "nojs@example.test", password: "longenough1", confirm: "longenough2" });
  await expect(page.getByLabel("confirm password")).toHaveAccessibleDescription(PASSWORDS_DIFFER);
  await expect(page.getByLabel("email")).toHaveValue("nojs@example.test");
  // Passwords never come back in the page.
  await expect(page.getByLabel("password", { exact: true })).toHaveValue("");

  // None of those posts made an account.
  expect((await api("GET", "/users/nojs_person")).status).toBe(404);
});

test("register, verify and log in without JavaScript; duplicates and wrong passwords are refused", async ({ page }) => {
  const user = newUser("nojs");

  await page.goto("/register");
  await fillRegister(page, { username: user.username, email: user.email, password: user.password, confirm: user.password });
  await expect(page).toHaveURL("/register/success");
  await expect(page.getByTestId("registered-email")).toHaveText(user.email);
  await expect(page.getByText("The link expires in 24 hours")).toBeVisible();
  await expect(page.getByText(/check your spam folder/)).toBeVisible();
  await expect(page.getByRole("link", { name: "I'll verify later" })).toHaveAttribute("href", "/login");

  // The verification mail reached the SMTP server (read now: a notice to the same address follows).
  const mail = await waitForMail(user.email);
  expect(mail.subject).toBe("Verify your faultline e-mail address");

  // The same username again is refused (usernames are public). The same e-mail under another
  // name looks like a new sign-up, so the form cannot tell who has an account; the address's
  // owner gets a notice instead (tests/integration/register.test.ts).
  await page.goto("/register");
  await fillRegister(page, { username: user.username, email: `other-${user.email}`, password: user.password, confirm: user.password });
  await expect(page.getByTestId("form-error")).toHaveText("Username or email already exists");
  await fillRegister(page, { username: `${user.username}x`.slice(0, 32), email: user.email.toUpperCase(), password: user.password, confirm: user.password });
  await expect(page).toHaveURL("/register/success");

  const notice = await waitForMail(user.email, mail.receivedAt + 1);
  expect(notice.subject).toBe("Someone tried to sign up to faultline with your e-mail address");

  // The verification link verifies, once.
  const link = verificationLink(mail);
  expect(link.startsWith("http://localhost:3100/verify-email?token=")).toBe(true);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Email Verified Successfully!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue to Login" })).toHaveAttribute("href", "/login");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Verification Failed" })).toBeVisible();
  await expect(page.getByText("The verification link is invalid or has expired.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Registration" })).toBeVisible();
  await page.goto("/verify-email");
  await expect(page.getByRole("heading", { name: "Verification Failed" })).toBeVisible();

  // Login: empty fields, a wrong password, then the right one.
  await page.goto("/login");
  await page.getByRole("button", { name: "login" }).click();
  await expect(page.getByLabel("username or email")).toHaveAccessibleDescription(REQUIRED);
  await expect(page.getByLabel("password")).toHaveAccessibleDescription(REQUIRED);

  await page.getByLabel("username or email").fill(user.username);
  await page.getByLabel("password").fill("not-the-password");
  await page.getByRole("button", { name: "login" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Incorrect username or password");
  await expect(page.getByLabel("username or email")).toHaveValue(user.username);

  await page.getByLabel("password").fill(user.password);
  await page.getByRole("button", { name: "login" }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByTestId("nav-username").first()).toHaveText(`~${user.username}`);
  await expect(page.getByTestId("unverified-notice")).toHaveCount(0);

  // Logout is a plain form post too.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "logout" }).first().click();
  await expect(page.getByRole("link", { name: "login.sh" }).first()).toBeVisible();
  await page.goto("/profile");
  await expect(page).toHaveURL("/login?redirectTo=%2Fprofile");

  // Signing in by e-mail address works as well.
  await page.getByLabel("username or email").fill(user.email);
  await page.getByLabel("password").fill(user.password);
  await page.getByRole("button", { name: "login" }).click();
  await expect(page).toHaveURL("/profile");
});

test("the second factor works without JavaScript, and a wrong code says so; turning it off needs the password", async ({ page }) => {
  // 2FA switched on through the API, as another client would.
  const user = await createUser({ prefix: "nojs2fa" });
  const login = await api("POST", "/auth/login", { username_or_email: user.username, password: user.password });
  const token = login.data.access_token as string;
  const setup = await api("POST", "/auth/2fa/setup", { current_password: user.password }, token);
  const secret = setup.data.secret as string;
  expect((await api("POST", "/auth/2fa/verify", { token: totpCode(secret), secret }, token)).status).toBe(200);

  await page.goto("/login");
  await page.getByLabel("username or email").fill(user.username);
  await page.getByLabel("password").fill(user.password);
  await page.getByRole("button", { name: "login" }).click();
  await expect(page).toHaveURL("/login/2fa");

  await page.getByLabel("code").fill("12345");
  await page.getByRole("button", { name: "verify" }).click();
  await expect(page.getByLabel("code")).toHaveAccessibleDescription("Enter the 6-digit code");

  await page.getByLabel("code").fill(totpCode(secret) === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "verify" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Invalid verification code");

  await page.getByLabel("code").fill(totpCode(secret, 1));
  await page.getByRole("button", { name: "verify" }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByTestId("nav-username").first()).toHaveText(`~${user.username}`);

  // Turning it off asks for the password (or a code); the confirmation question stands above the button.
  await page.goto("/profile/settings?tab=security");
  const section = page.getByTestId("twofa-section");
  await expect(section).toContainText("Are you sure you want to disable 2FA? This will make your account less secure.");
  await section.getByRole("button", { name: "Disable 2FA" }).click();
  await expect(section.getByTestId("twofa-disable-error")).toHaveText("Confirm with your current password or a code from your authenticator app");
  await section.getByTestId("twofa-disable").getByLabel("Current password").fill("not the password");
  await section.getByRole("button", { name: "Disable 2FA" }).click();
  await expect(section.getByTestId("twofa-error")).toHaveText("Current password is incorrect");
  await expect(section.getByTestId("twofa-state")).toContainText("2FA is enabled");
  await section.getByTestId("twofa-disable").getByLabel("Current password").fill(user.password);
  await section.getByRole("button", { name: "Disable 2FA" }).click();
  await expect(section.getByRole("button", { name: "Enable 2FA" })).toBeVisible();
});
