// In-app links (app/components/link.tsx) are plain anchors, navigated in the browser by one
// document click handler (app/hooks/use-link-navigation.ts): with scripts, a click loads only
// the next page's data (no document load) and the history works; a click that asks for another
// tab or window is left to the browser; the nav marks the current section on the server's HTML.
import { expect, test, type Page } from "@playwright/test";

/** A value set on this document: it survives client-side navigation and not a document load. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __linkMark: number }).__linkMark = 42));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __linkMark?: number }).__linkMark ?? null);

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" }).locator("div.md\\:flex");

test("a click on an in-app link navigates without a document load; back and forward work", async ({ page }) => {
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await mark(page);
  const documents: string[] = [];
  const data: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document") documents.push(r.url());
    if (new URL(r.url()).pathname.endsWith(".data")) data.push(new URL(r.url()).pathname);
  });

  await nav(page).getByRole("link", { name: "leaderboard/" }).click();
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/leaderboard/i);
  expect(await marked(page)).toBe(42);
  expect(documents).toEqual([]);
  expect(data).toContain("/leaderboard.data");
  await expect(nav(page).getByRole("link", { name: "leaderboard/" })).toHaveAttribute("aria-current", "page");
  await expect(nav(page).getByRole("link", { name: "challenges/" })).not.toHaveAttribute("aria-current", "page");

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/leaderboard$/);
  expect(await marked(page)).toBe(42);
  expect(documents).toEqual([]);
});

test("a modified click opens the page in a new tab and leaves this one where it is", async ({ page, context }) => {
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await mark(page);
  const opened = context.waitForEvent("page");
  await nav(page)
    .getByRole("link", { name: "challenges/" })
    .click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe("/challenges");
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await marked(page)).toBe(42);
  await tab.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("links are plain anchors that load the page, and the nav marks the current section", async ({ page }) => {
    await page.goto("/");
    await nav(page).getByRole("link", { name: "challenges/" }).click();
    await expect(page).toHaveURL(/\/challenges$/);
    await expect(nav(page).getByRole("link", { name: "challenges/" })).toHaveAttribute("aria-current", "page");
    await expect(nav(page).getByRole("link", { name: "leaderboard/" })).not.toHaveAttribute("aria-current", "page");
    await nav(page).getByRole("link", { name: "leaderboard/" }).click();
    await expect(page).toHaveURL(/\/leaderboard$/);
    await expect(nav(page).getByRole("link", { name: "leaderboard/" })).toHaveAttribute("aria-current", "page");
  });
});
