// The admin console in the browser, on real data: a non-admin gets /unauthorized; an admin
// verifies a user without JavaScript, disables and enables one, hides a challenge, and turns
// maintenance mode on, which shows the banner on every page and refuses a start; the log shows
// each action.
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { api, apiLogin, createUser, DATA_DIR, generateSshKey, loginViaForm, putSshKeyByApi } from "./support.ts";

const MAINTENANCE = "faultline is in maintenance mode: new deployments are paused. Deployments already running continue. Please try again later.";

function grantAdmin(username: string) {
  execFileSync("npx", ["tsx", "server/cli.ts", "grant", username], { env: { ...process.env, DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "warn" }, stdio: "pipe" });
}

test.describe("admin console", () => {
  test("a non-admin opening /admin gets /unauthorized", async ({ page }) => {
    const user = await createUser({ prefix: "noadm" });
    await loginViaForm(page, user);
    await page.goto("/admin");
    await expect(page).toHaveURL("/unauthorized");
  });

  test("without JavaScript an admin verifies a user; the log shows it", async ({ browser }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const target = await createUser({ prefix: "unv", verified: false });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await loginViaForm(page, admin);
    await page.goto(`/admin?tab=users&q=${target.username}`);
    const row = page.getByTestId(`user-row-${target.username}`);
    await expect(row.getByTestId("user-flags")).toContainText("unverified");
    await row.getByRole("button", { name: "verify" }).click();
    await expect(page.getByTestId(`user-row-${target.username}`).getByTestId("user-flags")).not.toContainText("unverified");
    await page.goto(`/admin?tab=logs&action=admin.user_verify&actor=${admin.username}`);
    await expect(page.getByTestId("log-target").first()).toHaveText(target.username);
    await context.close();
  });

  test("disable signs the user out and blocks sign-in; hide and show a challenge; stat cards are live", async ({ page }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const target = await createUser({ prefix: "dis" });
    await loginViaForm(page, admin);
    await page.goto("/admin");
    await expect(page.getByTestId("stat-memory-value")).toHaveText(/%$/);
    await page.getByLabel("search").fill(target.username);
    await page.getByRole("button", { name: "search" }).click();
    const row = page.getByTestId(`user-row-${target.username}`);
    await row.getByRole("button", { name: "disable" }).click();
    await expect(row.getByTestId("user-flags")).toContainText("disabled");
    const refused = await api("POST", "/auth/login", { username_or_email: target.username, password: target.password });
    expect(refused.status).toBe(403);
    await row.getByRole("button", { name: "enable" }).click();
    await expect(row.getByTestId("user-flags")).not.toContainText("disabled");

    await page.goto("/admin?tab=challenges");
    const nginx = page.getByTestId("challenge-row-nginx-broken-config");
    await nginx.getByRole("button", { name: "hide" }).click();
    await expect(nginx.getByTestId("challenge-visibility")).toHaveText("hidden");
    const listed = await api("GET", "/challenges/");
    expect(listed.data.challenges.map((c: { id: string }) => c.id)).not.toContain("nginx-broken-config");
    await nginx.getByRole("button", { name: "show" }).click();
    await expect(nginx.getByTestId("challenge-visibility")).toHaveText("listed");
  });

  test("maintenance mode shows the banner and refuses a start; turning it off lifts both", async ({ page }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const player = await createUser({ prefix: "ply" });
    const token = await apiLogin(player);
    expect((await putSshKeyByApi(token, generateSshKey().file)).status).toBe(200);
    await loginViaForm(page, admin);
    await page.goto("/admin?tab=system");
    await page.getByLabel(/Maintenance mode/).check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByTestId("maintenance-on")).toBeVisible();
    try {
      await page.goto("/challenges");
      await expect(page.getByTestId("maintenance-banner")).toHaveText(MAINTENANCE);
      const start = await api("POST", "/challenges/nginx-broken-config/session/start", {}, token);
      expect(start.status).toBe(503);
      expect(start.data.detail).toBe(MAINTENANCE);
    } finally {
      await page.goto("/admin?tab=system");
      await page.getByLabel(/Maintenance mode/).uncheck();
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByTestId("maintenance-on")).toHaveCount(0);
    }
    await page.goto("/challenges");
    await expect(page.getByTestId("maintenance-banner")).toHaveCount(0);
  });
});
