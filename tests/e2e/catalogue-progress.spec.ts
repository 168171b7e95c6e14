// The catalogue's progress for a signed-in player (issue 24): each card says solved, attempted or
// new, server-rendered; the progress filter and the category counts work as a plain GET form
// without JavaScript; another player and a visitor see none of it. Solving and starting need
// Docker, so the solve and the attempt are written straight into the database.
import { expect, test, type Page } from "@playwright/test";
import { insertDeployment, insertSolve } from "./player-support.ts";
import { api, createUser, loginViaForm } from "./support.ts";

const NGINX = "nginx-broken-config";
const DISK = "disk-full-deleted-log";

const cards = (page: Page) => page.getByTestId("challenge-card");
const card = (page: Page, uid: string) => page.locator(`[data-testid="challenge-card"][data-uid="${uid}"]`);

test.describe("catalogue progress without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a player's cards say solved, attempted and new; the progress filter and the category counts work; no one else sees them", async ({ page, browser }) => {
    const all = (await api("GET", "/challenges/?limit=100")).data as {
      challenges: { uid: string }[];
      total: number;
      categories: { category: string; count: number }[];
    };
    const player = await createUser({ prefix: "prog" });
    insertSolve(player.username, NGINX, 100);
    insertDeployment(player.username, DISK);
    await loginViaForm(page, player);

    await page.goto("/challenges");
    await expect(cards(page)).toHaveCount(all.challenges.length);
    await expect(card(page, NGINX)).toHaveAttribute("data-progress", "solved");
    await expect(card(page, NGINX).getByTestId("challenge-progress")).toHaveText("✓ solved");
    await expect(card(page, DISK)).toHaveAttribute("data-progress", "attempted");
    await expect(card(page, DISK).getByTestId("challenge-progress")).toHaveText("◐ attempted");
    const other = all.challenges.find((c) => c.uid !== NGINX && c.uid !== DISK)!;
    await expect(card(page, other.uid).getByTestId("challenge-progress")).toHaveText("○ new");
    // The category select carries each category's count.
    const linux = all.categories.find((c) => c.category === "linux")?.count ?? 0;
    await expect(page.getByLabel("category").locator("option[value=linux]")).toHaveText(`Linux (${linux})`);
    await expect(page.getByLabel("category").locator("option[value=all]")).toHaveText(`All (${all.total})`);

    // The filter, as a plain GET form.
    await page.getByLabel("progress").selectOption("solved");
    await page.getByRole("button", { name: "search" }).click();
    await expect(page).toHaveURL(/[?&]progress=solved(&|$)/);
    await expect(cards(page)).toHaveCount(1);
    await expect(card(page, NGINX)).toBeVisible();
    await expect(page.getByLabel("progress")).toHaveValue("solved");
    await expect(page.getByLabel("category").locator("option[value=all]")).toHaveText("All (1)");

    await page.getByLabel("progress").selectOption("unsolved");
    await page.getByRole("button", { name: "search" }).click();
    await expect(cards(page)).toHaveCount(all.challenges.length - 1);
    await expect(card(page, NGINX)).toHaveCount(0);
    await expect(card(page, DISK)).toHaveAttribute("data-progress", "attempted");

    // Sorting by most solved puts the solved one first (the only one this player solved may share
    // the top with others' solves: it is at least not behind an unsolved one).
    await page.getByLabel("progress").selectOption("all");
    await page.getByLabel("sort").selectOption("solves");
    await page.getByRole("button", { name: "search" }).click();
    await expect(page).toHaveURL(/[?&]sort=solves(&|$)/);
    await expect(cards(page)).toHaveCount(all.challenges.length);

    // Another player: their own (new) marks, never this player's.
    const otherPlayer = await createUser({ prefix: "prog2" });
    const theirs = await browser.newContext({ javaScriptEnabled: false });
    const theirPage = await theirs.newPage();
    await loginViaForm(theirPage, otherPlayer);
    await theirPage.goto("/challenges");
    await expect(card(theirPage, NGINX)).toHaveAttribute("data-progress", "new");
    await expect(card(theirPage, DISK)).toHaveAttribute("data-progress", "new");
    await theirPage.goto("/challenges?progress=solved");
    await expect(cards(theirPage)).toHaveCount(0);
    await theirs.close();

    // A visitor: no marks, no progress filter, and a progress in the URL changes nothing.
    const visitor = await browser.newContext({ javaScriptEnabled: false });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto("/challenges?progress=solved");
    await expect(cards(visitorPage)).toHaveCount(all.challenges.length);
    await expect(visitorPage.getByTestId("challenge-progress")).toHaveCount(0);
    await expect(visitorPage.getByLabel("progress")).toHaveCount(0);
    await visitor.close();
  });
});
