// With JavaScript the forms check themselves in the browser (conform with the zod/mini schemas,
// app/lib/parse-form.ts) and show their messages beside the fields before anything is
// posted; the same forms without JavaScript get the same messages from the server
// (no-javascript.spec.ts, account-basics.spec.ts).
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { createUser, DATA_DIR, loginViaForm } from "./support.ts";

/** Every POST the page sends from now on (a form that validated in the browser sends none). */
function posts(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") seen.push(r.url());
  });
  return seen;
}

test("register: the validation messages appear without a request, and a valid form then goes through", async ({ page }) => {
  await page.goto("/register");
  // Hydrated: conform turned the browser's own validation off for its own.
  await expect(page.locator("form#register")).toHaveAttribute("novalidate", "");
  await page.waitForLoadState("networkidle");
  const sent = posts(page);
  await page.getByLabel("username").fill("a!");
  await page.getByLabel("email").fill("no-at-sign.example");
  await page.getByLabel("password", { exact: true }).fill("short");
  await page.getByLabel("confirm password").fill("other");
  await page.getByRole("button", { name: "create account" }).click();
  await expect(page.getByLabel("username")).toHaveAccessibleDescription("Usernames are 3 to 32 letters, digits, _ or -");
  await expect(page.getByLabel("email")).toHaveAccessibleDescription("Please enter a valid email address");
  await expect(page.getByLabel("password", { exact: true })).toHaveAccessibleDescription("Password must be at least 8 characters long");
  await expect(page.getByLabel("confirm password")).toHaveAccessibleDescription("Passwords do not match");
  await page.getByLabel("username").fill("");
  await page.getByRole("button", { name: "create account" }).click();
  await expect(page.getByLabel("username")).toHaveAccessibleDescription("Please fill in all required fields");
  expect(sent).toEqual([]);
});

test("settings: a password change that does not match is refused in the browser", async ({ page }) => {
  const user = await createUser({ prefix: "cv" });
  await loginViaForm(page, user);
  await page.goto("/profile/settings?tab=security");
  await page.waitForLoadState("networkidle");
  const sent = posts(page);
  const section = page.getByTestId("password-section");
  await section.getByLabel("Current password").fill(user.password);
  await section.getByLabel("New password", { exact: true }).fill("short");
  await section.getByLabel("Confirm new password").fill("shorter");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByLabel("New password", { exact: true })).toHaveAccessibleDescription("Password must be at least 8 characters long");
  await expect(section.getByLabel("Confirm new password")).toHaveAccessibleDescription("Passwords do not match");
  expect(sent).toEqual([]);
});

test("admin settings: numbers typed in the form are read as numbers, with the form's messages", async ({ page }) => {
  const admin = await createUser({ prefix: "cvadm" });
  execFileSync("npx", ["tsx", "server/cli.ts", "grant", admin.username], {
    env: { ...process.env, DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
  await loginViaForm(page, admin);
  await page.goto("/admin?tab=system");
  await page.waitForLoadState("networkidle");
  const sent = posts(page);
  const timeout = page.getByLabel(/Deployment duration/);
  const max = page.getByLabel(/Max concurrent deployments/);
  await timeout.fill("0");
  await max.fill("");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(timeout).toHaveAccessibleDescription("The deployment duration must be at least 1 minute");
  await expect(max).toHaveAccessibleDescription("The maximum must be a whole number");
  await max.fill("1.5");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(max).toHaveAccessibleDescription("The maximum must be a whole number");
  expect(sent).toEqual([]);
});
