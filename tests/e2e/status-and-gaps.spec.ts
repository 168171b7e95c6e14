// The honest /status page and a few small page states: each part's state and the
// time of the check as GET /api/v1/health measures it on this e2e server (a real dockerd, so an
// engine, gateway and worker); /unauthorized's back link with and without JavaScript; a new
// player's solve rate shown as "–". The OAuth callback's processing, success and error states
// are in oauth.spec.ts: the loopback provider's next identity and counters are shared, so every
// OAuth test lives in that one file.
import { expect, test } from "@playwright/test";
import type { HealthReport } from "#shared/contract/index.ts";
import { api, createUser, loginViaForm } from "./support.ts";

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

test.describe("/status", () => {
  test("shows database, runtime, gateway and worker with their state and the time of the check", async ({ page }) => {
    await page.goto("/status");
    const checked = page.getByTestId("status-checked-at");
    await expect(checked).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    const checkedAt = (await checked.getAttribute("datetime"))!;
    // Measured now, not a text baked into the page.
    expect(Math.abs(Date.now() - Date.parse(checkedAt))).toBeLessThan(60_000);

    // The API's report (cached a few seconds, so normally the very same measurement).
    const { status, data: report } = await api<HealthReport>("GET", "/health");
    expect([200, 503]).toContain(status);

    // This configuration has a database and a Docker engine, hence a gateway and a worker too.
    await expect(page.getByTestId("status-database")).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("status-database")).toContainText("answering");
    for (const id of ["runtime", "gateway", "worker"] as const) {
      await expect(page.getByTestId(`status-${id}`)).not.toHaveAttribute("data-status", "disabled");
    }
    await expect(page.getByTestId("status-gateway")).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("status-gateway")).toContainText("accepting connections");
    await expect(page.getByTestId("status-worker")).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("status-worker")).toContainText(/last round \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await expect(page.getByTestId("status-runtime")).toContainText(/engine answering/);

    // Each row says what the API says, in words and in its state cell.
    for (const [id, name] of [
      ["database", "database"],
      ["runtime", "challenge runtime"],
      ["gateway", "ssh gateway"],
      ["worker", "worker"],
    ] as const) {
      const row = page.getByTestId(`status-${id}`);
      await expect(row.getByRole("rowheader")).toHaveText(name);
      await expect(row).toHaveAttribute("data-status", report.components[id].status);
      await expect(row.getByRole("cell").first()).toHaveText(`● ${report.components[id].status}`);
    }
    const runtime = report.components.runtime;
    if (runtime.images_missing === 0) {
      await expect(page.getByTestId("status-runtime")).toContainText(`all ${runtime.images_expected} challenge images present`);
    }
    await expect(page.getByTestId("status-overall")).toHaveAttribute("data-status", report.status);
    await expect(page.getByTestId("status-deployments")).toHaveText(/^\d+$/);

    // "check again" measures again (the cache lasts seconds): a later time, same page.
    await page.waitForTimeout(3_500);
    await page.getByRole("link", { name: "check again" }).click();
    await expect(page).toHaveURL("/status");
    await expect(checked).not.toHaveText(utc(checkedAt));
  });

  test("works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto("/status");
      for (const id of ["database", "runtime", "gateway", "worker"]) {
        await expect(page.getByTestId(`status-${id}`)).toHaveAttribute("data-status", /^(ok|degraded|down)$/);
      }
      await expect(page.getByTestId("status-checked-at")).toHaveText(/UTC$/);
    } finally {
      await context.close();
    }
  });
});

test.describe("/unauthorized", () => {
  test("with JavaScript the back link goes back in history", async ({ page }) => {
    await page.goto("/faq");
    await page.goto("/unauthorized");
    await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
    await page.getByTestId("back-button").click();
    await expect(page).toHaveURL("/faq");
  });

  test("without JavaScript the back link goes home", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto("/faq");
      const res = await page.goto("/unauthorized");
      expect(res?.status()).toBe(403);
      await expect(page.getByTestId("back-button")).toHaveAttribute("href", "/");
      await page.getByTestId("back-button").click();
      await expect(page).toHaveURL("/");
    } finally {
      await context.close();
    }
  });
});

test("a new player's solve rate is '–', on their profile and their public page", async ({ page }) => {
  const user = await createUser({ prefix: "rate" });
  await loginViaForm(page, user);
  await expect(page).toHaveURL("/profile");
  await expect(page.getByTestId("profile-solve-rate").getByRole("definition")).toHaveText("–");
  await page.goto(`/profile/${user.username}`);
  await expect(page.getByTestId("profile-solve-rate").getByRole("definition")).toHaveText("–");
});
