// The easter egg: typing 'game' or 'play' outside a text field opens the brick-breaker, whose code
// is fetched only then; its states (running, paused, game over) follow the keys; it never takes
// keys from inputs; Escape closes it.
import { expect, test, type Page } from "@playwright/test";

const gameChunks = (page: Page) => {
  const urls: string[] = [];
  page.on("request", (r) => {
    if (/brick-breaker[^/]*\.js/.test(r.url())) urls.push(r.url());
  });
  return urls;
};

test("typing 'game' opens it (its code only then); p pauses, the ball is lost, r plays again, Escape closes", async ({ page }) => {
  const chunks = gameChunks(page);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(chunks).toEqual([]);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.type("game");
  const dialog = page.getByRole("dialog", { name: "brick-breaker" });
  await expect(dialog).toBeVisible();
  expect(chunks.length).toBeGreaterThan(0);
  await expect(dialog.locator("canvas")).toHaveAttribute("width", "640");
  await expect(dialog.locator("canvas")).toHaveAttribute("height", "480");
  const state = dialog.getByTestId("game-state");
  await expect(state).toHaveText("running");

  await page.keyboard.press("p");
  await expect(state).toHaveText("paused");
  await page.keyboard.press("r"); // not over: r does nothing
  await expect(state).toHaveText("paused");
  await page.keyboard.press("p");
  await expect(state).toHaveText("running");

  // Hold the paddle against the left wall: the ball is lost sooner or later.
  await page.keyboard.down("h");
  await expect(state).toHaveText("game over", { timeout: 45_000 });
  await page.keyboard.up("h");
  await page.keyboard.press("r");
  await expect(state).toHaveText("running");
  await expect(dialog.getByTestId("game-score")).toHaveText("0");

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.keyboard.type("play");
  await expect(dialog).toBeVisible();
});

test("typing 'game' or 'play' into a text field does not open it", async ({ page }) => {
  await page.goto("/challenges");
  await page.getByLabel("search").click();
  await page.keyboard.type("play game");
  await expect(page.getByRole("dialog", { name: "brick-breaker" })).toHaveCount(0);
  await expect(page.getByLabel("search")).toHaveValue("play game");
});
