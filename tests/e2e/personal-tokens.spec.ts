// Personal API tokens in settings (Security tab), with and without JavaScript: make one, see it
// once, call /api/v1 with it as another client would, see its last use in the list, revoke it,
// and see the API refuse it.
import { expect, type Page, test } from "@playwright/test";
import { api, createUser, loginViaForm } from "./support.ts";

const TOKEN = /^flt_[A-Za-z0-9_-]{43}$/;

async function makeToken(page: Page, name: string, scope: "read" | "play", expiry: string) {
  const section = page.getByTestId("tokens-section");
  await section.getByLabel("Token name").fill(name);
  await section.getByLabel("Scope").selectOption(scope);
  await section.getByLabel("Expires").selectOption(expiry);
  await section.getByRole("button", { name: "Create token" }).click();
  await expect(section.getByTestId("token-created")).toContainText("Copy it now: it will not be shown again.");
  const token = (await section.getByTestId("token-secret").textContent())!.trim();
  expect(token).toMatch(TOKEN);
  return token;
}

async function flow(page: Page, withJs: boolean) {
  const user = await createUser({ prefix: withJs ? "tokjs" : "toknojs" });
  await loginViaForm(page, user);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/profile/settings?tab=security");
  const section = page.getByTestId("tokens-section");
  await expect(section.getByTestId("tokens-empty")).toBeVisible();

  // A blank name is refused by the form (the browser's check with JS, the server's without).
  await section.getByRole("button", { name: "Create token" }).click();
  await expect(section.getByText("Give the token a name of 1 to 64 characters")).toBeVisible();

  const token = await makeToken(page, "e2e laptop", "read", "30");
  const row = section.getByTestId("token-row").filter({ hasText: "e2e laptop" });
  await expect(row.getByTestId("token-scope")).toHaveText("read");
  await expect(row.getByTestId("token-last-used")).toHaveText("never");

  // The API takes it within its scope: reads yes, a start no, settings no.
  const active = await api("GET", "/challenges/active-session", undefined, token);
  expect(active.status, JSON.stringify(active.data)).toBe(200);
  expect((await api("GET", "/challenges/", undefined, token)).status).toBe(200);
  expect((await api("POST", "/challenges/disk-full-deleted-log/session/start", {}, token)).status).toBe(403);
  expect((await api("GET", "/users/me", undefined, token)).status).toBe(403);

  // Seen once: a fresh load lists it (with its last use) but never shows the token again.
  await page.goto("/profile/settings?tab=security");
  await expect(section.getByTestId("token-created")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await expect(row.getByTestId("token-last-used")).toHaveText(/UTC$/);

  // Revoke: with JavaScript a confirm dialog first.
  if (withJs) page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(section.getByTestId("tokens-ok")).toHaveText("Token revoked");
  await expect(section.getByTestId("token-row")).toHaveCount(0);
  const refused = await api("GET", "/challenges/active-session", undefined, token);
  expect(refused.status).toBe(401);
  expect(refused.data.detail).toBe("Invalid or expired token");
}

test.describe("personal API tokens in settings", () => {
  test("make, see once, use, revoke, refused (with JavaScript)", async ({ page }) => {
    await flow(page, true);
  });
});

test.describe("personal API tokens without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("make, see once, use, revoke, refused (without JavaScript)", async ({ page }) => {
    await flow(page, false);
  });
});
