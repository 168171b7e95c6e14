// The account basics in the browser: forgot password end to end with the captured
// mail, the data export download, deleting the account, and resetting a deployment on the
// challenge page against the real runtime (same timer and ssh command, new values).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, type Page, test } from "@playwright/test";
import { api, apiLogin, createUser, DATA_DIR, loginViaForm, putSshKeyByApi, screenshots, sshKeyPair, waitForMail } from "./support.ts";

const DISK = "disk-full-deleted-log";

/** The deployment's row as the server stored it (the scenario's values are never shown). */
function deploymentRow(id: string) {
  const db = new Database(join(DATA_DIR, "faultline.db"), { readonly: true });
  try {
    return db.prepare("select scenario_values, expires_at, ssh_user, container_id from deployments where id = ?").get(id) as {
      scenario_values: string;
      expires_at: number;
      ssh_user: string;
      container_id: string;
    };
  } finally {
    db.close();
  }
}

async function signIn(page: Page, who: { username: string; password: string }) {
  await loginViaForm(page, who);
  await expect(page).not.toHaveURL(/\/login/);
}

test.describe("account basics", () => {
  test("forgot password: the link in the mail sets a new password once, and it signs in", async ({ page }) => {
    const user = await createUser({ prefix: "forgot" });
    await page.goto("/login");
    await page.getByTestId("forgot-password").click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    const since = Date.now();
    await page.getByLabel("email").fill(user.email);
    await page.getByRole("button", { name: "send reset link" }).click();
    await expect(page.getByTestId("forgot-sent")).toContainText("If an account uses this address");
    await screenshots(page, "forgot-password-sent");

    const mail = await waitForMail(user.email, since);
    expect(mail.subject).toBe("Reset your faultline password");
    const link = /https?:\/\/\S+\/reset-password\?token=[^\s"<>]+/.exec(mail.text)![0];
    await page.goto(new URL(link).pathname + new URL(link).search);
    const fresh = `${user.password}-new`;
    await screenshots(page, "reset-password-form");
    await page.getByLabel("new password", { exact: true }).fill(fresh);
    await page.getByLabel("confirm new password").fill(fresh);
    await page.getByRole("button", { name: "set new password" }).click();
    await expect(page.getByTestId("reset-done")).toBeVisible();

    // Used once: the same link now says so.
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByTestId("reset-invalid")).toBeVisible();
    await signIn(page, { username: user.username, password: fresh });
    expect((await api("POST", "/auth/login", { username_or_email: user.username, password: user.password })).status).toBe(401);
  });

  test("the same page and answer for an address without an account", async ({ page }) => {
    await page.goto("/forgot-password");
    await page.getByLabel("email").fill(`nobody-${Date.now()}@mail.example.test`);
    await page.getByRole("button", { name: "send reset link" }).click();
    await expect(page.getByTestId("forgot-sent")).toContainText("If an account uses this address");
  });

  test("export my data downloads a JSON file of the account, without secrets", async ({ page }) => {
    const user = await createUser({ prefix: "export" });
    await signIn(page, user);
    await page.goto("/profile/settings?tab=security");
    await screenshots(page, "settings-security-account");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-data").click()]);
    expect(download.suggestedFilename()).toBe(`faultline-${user.username}.json`);
    const text = readFileSync((await download.path())!, "utf8");
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ username: user.username, email: user.email });
    expect(text).not.toMatch(/password_hash|totp_secret|\$argon2/);
    expect(text).not.toContain(user.password);
  });

  test("delete account: confirmed with the password and the dialog, then signed out and gone", async ({ page }) => {
    const user = await createUser({ prefix: "delete" });
    await signIn(page, user);
    await page.goto("/profile/settings?tab=security");
    const form = page.getByTestId("delete-account");
    await form.getByLabel("Current password").fill(user.password);
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.accept();
    });
    await form.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Your account and its personal data were deleted.")).toBeVisible();
    expect(asked).toContain("cannot be undone");
    expect((await api("POST", "/auth/login", { username_or_email: user.username, password: user.password })).status).toBe(401);
    expect((await api("GET", `/users/${user.username}`)).status).toBe(404);
  });

  test("reset on the challenge page: resetting then ready, same timer and ssh command, new values", async ({ page }) => {
    test.setTimeout(240_000);
    const user = await createUser({ prefix: "reset" });
    const keys = sshKeyPair(`${user.username}@e2e`);
    try {
      const token = await apiLogin(user);
      expect((await putSshKeyByApi(token, keys.privateKey)).status).toBe(200);
      await signIn(page, user);
      await page.goto(`/challenges/${DISK}`);
      const status = page.getByTestId("deployment-status").first();
      await page.getByTestId("start-button").click();
      await expect(status).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
      const command = (await page.getByTestId("ssh-command").textContent())!.trim();
      const started = await api("GET", `/challenges/${DISK}/active-session`, undefined, token);
      const id = started.data.deployment_id as string;
      const before = deploymentRow(id);

      let asked = "";
      page.once("dialog", (d) => {
        asked = d.message();
        void d.accept();
      });
      await page.getByTestId("reset-button").click();
      await expect(status).toHaveAttribute("data-status", "resetting");
      await page.getByTestId("session-panel").screenshot({ path: "screenshots/challenge-resetting-panel.png" });
      await expect(status).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
      expect(asked).toContain("The timer and the ssh command stay the same");
      expect((await page.getByTestId("ssh-command").textContent())!.trim()).toBe(command);
      const after = deploymentRow(id);
      expect(after.expires_at).toBe(before.expires_at);
      expect(after.ssh_user).toBe(before.ssh_user);
      expect(after.container_id).not.toBe(before.container_id);
      expect(JSON.parse(after.scenario_values).digest).not.toBe(JSON.parse(before.scenario_values).digest);

      // Without JavaScript: the link leads to a page that asks, and its button resets.
      await page.goto(`/challenges/${DISK}/reset`);
      await expect(page.getByTestId("reset-confirm")).toContainText("at most 3 times");
      await screenshots(page, "reset-confirm-page");
      await page.getByTestId("reset-confirm-button").click();
      await expect(page).toHaveURL(new RegExp(`/challenges/${DISK}$`));
      await expect(status).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
      await api("POST", `/challenges/${DISK}/session/terminate`, {}, token);
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});

test.describe("account basics without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("forgot password, the new password, and deleting the account all work as plain forms", async ({ page }) => {
    const user = await createUser({ prefix: "nojs" });
    await page.goto("/login");
    await page.getByTestId("forgot-password").click();
    const since = Date.now();
    await page.getByLabel("email").fill(user.email);
    await page.getByRole("button", { name: "send reset link" }).click();
    await expect(page.getByTestId("forgot-sent")).toBeVisible();
    const link = new URL(/https?:\/\/\S+\/reset-password\?token=[^\s"<>]+/.exec((await waitForMail(user.email, since)).text)![0]);
    await page.goto(link.pathname + link.search);
    // Registration's rules, said by the server.
    await page.getByLabel("new password", { exact: true }).fill("short");
    await page.getByLabel("confirm new password").fill("short");
    await page.getByRole("button", { name: "set new password" }).click();
    await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
    const fresh = `${user.password}-nojs`;
    await page.getByLabel("new password", { exact: true }).fill(fresh);
    await page.getByLabel("confirm new password").fill(fresh);
    await page.getByRole("button", { name: "set new password" }).click();
    await expect(page.getByTestId("reset-done")).toBeVisible();

    await signIn(page, { username: user.username, password: fresh });
    await page.goto("/profile/settings?tab=security");
    const form = page.getByTestId("delete-account");
    await form.getByLabel("Current password").fill("not the password");
    await form.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByTestId("account-delete-error")).toHaveText("Current password is incorrect");
    await page.getByTestId("delete-account").getByLabel("Current password").fill(fresh);
    await page.getByTestId("delete-account").getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Your account and its personal data were deleted.")).toBeVisible();
  });
});
