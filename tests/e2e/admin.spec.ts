// The admin console in the browser, on real data: a non-admin gets /unauthorized; an admin
// verifies a user without JavaScript, disables and enables one, hides a challenge, and turns
// maintenance mode on, which shows the banner on every page and refuses a start; makes a user an
// admin and revokes it (the user can, then cannot, open /admin); sets a user's plan to Pro (their
// billing page says Pro, hard challenges lose their lock); adds a user (the verification mail
// arrives, its link verifies the account, the search finds it); reloads the challenges (the
// count loaded is what CHALLENGES_DIR holds); and the Logs tab filters by action, and Export
// Logs downloads those entries as JSON lines. Each action is checked by its effect.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { api, apiLogin, createUser, DATA_DIR, generateSshKey, loginViaForm, newUser, putSshKeyByApi, verificationLink, waitForMail } from "./support.ts";

const MAINTENANCE = "faultline is in maintenance mode: new deployments are paused. Deployments already running continue. Please try again later.";

function grantAdmin(username: string) {
  execFileSync("npx", ["tsx", "server/cli.ts", "grant", username], { env: { ...process.env, DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "warn" }, stdio: "pipe" });
}

/** The admin's Users tab searched for `username`, and that user's row. */
async function userRow(page: Page, username: string) {
  await page.goto(`/admin?tab=users&q=${username}`);
  const row = page.getByTestId(`user-row-${username}`);
  await expect(row).toBeVisible();
  return row;
}

/** The challenge folders the server loads (the repository's challenges/, as the browser tests run it). */
function challengeFolders(): string[] {
  const dir = fileURLToPath(new URL("../../challenges/", import.meta.url));
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[a-z0-9][a-z0-9-]*$/.test(d.name) && existsSync(join(dir, d.name, "challenge.yaml")))
    .map((d) => d.name);
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

  test("make admin opens /admin to the user, revoke admin closes it; the Logs tab filters by action and Export Logs downloads them", async ({
    page,
    browser,
  }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const target = await createUser({ prefix: "mka" });
    await loginViaForm(page, admin);
    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    try {
      await loginViaForm(them, target);
      await them.goto("/admin");
      await expect(them).toHaveURL("/unauthorized");

      const row = await userRow(page, target.username);
      await row.getByRole("button", { name: "make admin" }).click();
      await expect(row.getByTestId("user-flags")).toContainText("admin");
      await them.goto("/admin");
      await expect(them).toHaveURL("/admin");
      await expect(them.getByRole("heading", { name: "sudo admin" })).toBeVisible();

      await row.getByRole("button", { name: "revoke admin" }).click();
      await expect(row.getByTestId("user-flags")).not.toContainText("admin");
      await them.goto("/admin");
      await expect(them).toHaveURL("/unauthorized");
    } finally {
      await theirs.close();
    }

    // The admin's own entries: the sign-in and the two changes; filtering by action keeps the two.
    await page.goto(`/admin?tab=logs&actor=${admin.username}`);
    await expect(page.getByTestId("log-action").filter({ hasText: "auth.login" }).first()).toBeVisible();
    await page.getByLabel("action", { exact: true }).selectOption("admin.user_admin");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(/[?&]action=admin\.user_admin(&|$)/);
    await expect(page.getByTestId("logs-total")).toHaveText("2 entries");
    await expect(page.getByTestId("log-action")).toHaveText(["admin.user_admin", "admin.user_admin"]);
    await expect(page.getByTestId("log-target")).toHaveText([target.username, target.username]);
    // Newest first: the revoke, then the grant.
    await expect(page.getByTestId("log-row").nth(0)).toContainText('"is_admin":false');
    await expect(page.getByTestId("log-row").nth(1)).toContainText('"is_admin":true');

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-logs").click()]);
    expect(download.suggestedFilename()).toMatch(/^faultline-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const lines = readFileSync(await download.path(), "utf8")
      .split("\n")
      .filter(Boolean);
    const entries = lines.map((l) => JSON.parse(l) as { action: string; actor: string; target: string; detail: { is_admin: boolean } });
    expect(entries.map((e) => [e.action, e.actor, e.target, e.detail.is_admin])).toEqual([
      ["admin.user_admin", admin.username, target.username, false],
      ["admin.user_admin", admin.username, target.username, true],
    ]);
  });

  test("set plan to Pro: the user's billing page says Pro until the date, and hard challenges lose their lock", async ({ page, browser }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const player = await createUser({ prefix: "pro" });
    const year = new Date().getUTCFullYear() + 1;
    await loginViaForm(page, admin);
    const row = await userRow(page, player.username);
    await expect(row.getByTestId("user-plan")).toHaveText("free");
    await row.getByLabel(`plan of ${player.username}`).selectOption("pro");
    await row.getByLabel(/pro until/).fill(`${year}-01-31`);
    await row.getByRole("button", { name: "set plan" }).click();
    await expect(row.getByTestId("user-plan")).toHaveText(`pro until ${year}-01-31`);

    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    try {
      await loginViaForm(them, player);
      await them.goto("/billing");
      await expect(them.getByTestId("billing-plan-name")).toHaveText("Pro");
      await expect(them.getByTestId("billing-plan-until")).toHaveText(`Pro until Jan 31, ${year} (UTC).`);
      await them.goto("/challenges?difficulty=hard");
      await expect(them.getByTestId("challenge-card").first()).toBeVisible();
      await expect(them.getByTestId("plan-lock")).toHaveCount(0);
    } finally {
      await theirs.close();
    }
  });

  test("Add User mails the verification link; the search finds the new account, and the link verifies it", async ({ page }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const fresh = newUser("add");
    const since = Date.now();
    await loginViaForm(page, admin);
    await page.goto("/admin?tab=users");
    await page.getByTestId("add-user").click();
    const form = page.locator("#admin-add-user");
    await form.getByLabel("username").fill(fresh.username);
    await form.getByLabel("email").fill(fresh.email);
    await form.getByLabel("initial password").fill(fresh.password);
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByTestId("admin-ok")).toHaveText(`Created ${fresh.username}; a verification link was mailed to ${fresh.email}.`);

    const link = verificationLink(await waitForMail(fresh.email, since));
    const row = await userRow(page, fresh.username);
    await expect(row).toContainText(fresh.email);
    await expect(row.getByTestId("user-flags")).toHaveText("unverified");

    const verified = await api("POST", "/auth/verify-email", { token: new URL(link).searchParams.get("token") });
    expect(verified.status, JSON.stringify(verified.data)).toBe(200);
    await page.reload();
    await expect(page.getByTestId(`user-row-${fresh.username}`).getByTestId("user-flags")).toHaveText("verified");
    await apiLogin(fresh); // the initial password signs in
  });

  test("reload content reports every challenge folder loaded, and the log records it", async ({ page }) => {
    const admin = await createUser({ prefix: "adm" });
    grantAdmin(admin.username);
    const folders = challengeFolders();
    expect(folders.length).toBeGreaterThan(0);
    await loginViaForm(page, admin);
    await page.goto("/admin?tab=challenges");
    await page.getByRole("button", { name: "Reload content" }).click();
    const report = page.getByTestId("reload-report");
    await expect(report).toContainText(`Loaded ${folders.length} challenge${folders.length === 1 ? "" : "s"}.`);
    await expect(report).toContainText("Every folder loaded.");
    await expect(page.getByTestId("admin-ok")).toHaveText("Reloaded.");
    for (const id of folders) await expect(page.getByTestId(`challenge-row-${id}`).getByTestId("challenge-visibility")).not.toHaveText("not in library");

    await page.goto(`/admin?tab=logs&action=admin.content_reload&actor=${admin.username}`);
    await expect(page.getByTestId("logs-total")).toHaveText("1 entry");
    await expect(page.getByTestId("log-row")).toContainText(`"loaded":${folders.length}`);
  });
});
