// The player's pages in Chromium: the catalogue (search after a 300 ms pause with JavaScript, the
// same GET form without it), the leaderboard (paging and periods without JavaScript, the next
// page fetched ahead only on intent with it), a public profile with real points, rank and achievements, the home
// page's real figures, and screenshots of them at desktop and phone widths.
import { expect, test, type Page } from "@playwright/test";
import { insertSolve, insertUser } from "./player-support.ts";
import { api, createUser, loginViaForm, screenshots, unique } from "./support.ts";

const NGINX = "nginx-broken-config";
const DISK = "disk-full-deleted-log";
const NGINX_TITLE = "The shop is down: nginx will not start";
const DISK_TITLE = "No space left on device, but the disk is empty";

const cards = (page: Page) => page.getByTestId("challenge-card");
const now = () => Math.floor(Date.now() / 1000);
const OLD = () => now() - 40 * 86400;

/** 17 players with distinct, large points (top of the board); two of them also scored today. */
function seedBoard(prefix: string) {
  const names = Array.from({ length: 17 }, (_, i) => `${prefix}_${String(i).padStart(2, "0")}`);
  names.forEach((name, i) => {
    insertUser(name, OLD());
    insertSolve(name, NGINX, 90_000 - i * 1000, { solveSeconds: 60 * (i + 1), solvedAt: OLD() });
  });
  insertSolve(names[5]!, DISK, 500, { solveSeconds: 120 });
  insertSolve(names[9]!, DISK, 700, { solveSeconds: 180 });
  return names;
}

/** The catalogue as the API lists it: counts come from the content, which grows. */
async function catalogue(query = ""): Promise<{ difficulty_level: string; category: string; title: string }[]> {
  return (await api("GET", `/challenges/?limit=100${query}`)).data.challenges;
}

test.describe("catalogue", () => {
  test("with JavaScript: search updates after a 300 ms pause, selects at once; badges, notes, colours", async ({ page }) => {
    const all = (await catalogue()).length;
    // The page's timers run on Playwright's clock, so "a pause in typing" is the test's to say,
    // not the machine's: on a loaded CI machine 40 ms between keys became more than 300 ms and
    // the search fired mid-word (tests/e2e/player-pages.spec.ts failed both tries).
    await page.clock.install();
    await page.goto("/challenges");
    await page.waitForLoadState("networkidle");
    await expect(cards(page)).toHaveCount(all);
    const nginx = cards(page).filter({ hasText: NGINX_TITLE });
    await expect(nginx.getByTestId("challenge-badge")).toHaveText(/popular/);
    await expect(nginx.getByTestId("incident-note")).toContainText("nginx -t");
    await expect(nginx.getByTestId("difficulty")).toHaveText("easy");
    await expect(nginx.getByTestId("difficulty")).toHaveClass(/green/);
    await expect(cards(page).filter({ hasText: DISK_TITLE }).getByTestId("difficulty")).toHaveClass(/yellow/);
    await expect(cards(page).filter({ hasText: DISK_TITLE }).getByTestId("challenge-badge")).toHaveText(/trending/);

    // Typing quickly makes one request, once typing pauses.
    const dataRequests: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/challenges.data") dataRequests.push(r.url());
    });
    const nginxCount = (await catalogue("&search=NGINX")).length;
    expect(nginxCount).toBeGreaterThanOrEqual(1);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.getByLabel("search").pressSequentially("NGINX");
    await page.clock.runFor(299);
    expect(dataRequests).toHaveLength(0);
    await page.clock.runFor(1);
    await expect(page).toHaveURL(/search=NGINX/);
    await expect(cards(page)).toHaveCount(nginxCount);
    await expect(cards(page).filter({ hasText: NGINX_TITLE })).toHaveCount(1);
    await page.clock.runFor(1000);
    expect(dataRequests).toHaveLength(1);
    await page.clock.resume();

    // A tag, any case.
    await page.getByLabel("search").fill("LSOF");
    await expect(cards(page)).toHaveCount((await catalogue("&search=lsof")).length);
    await expect(cards(page).filter({ hasText: DISK_TITLE })).toHaveCount(1);

    // The filters on the real library: the counts are the content's.
    const list = await catalogue();
    await page.getByLabel("search").fill("");
    await expect(cards(page)).toHaveCount(all);
    await page.getByLabel("category").selectOption("storage");
    await expect(page).toHaveURL(/category=storage/);
    await expect(cards(page)).toHaveCount(list.filter((c) => c.category === "storage").length);
    await expect(cards(page).filter({ hasText: DISK_TITLE })).toHaveCount(1);
    await page.getByLabel("difficulty").selectOption("easy");
    const easyStorage = list.filter((c) => c.category === "storage" && c.difficulty_level === "easy").length;
    if (easyStorage) await expect(cards(page)).toHaveCount(easyStorage);
    else await expect(page.getByText("No challenges found")).toBeVisible();
    await page.getByLabel("category").selectOption("all");
    await expect(cards(page)).toHaveCount(list.filter((c) => c.difficulty_level === "easy").length);
    await expect(cards(page).filter({ hasText: NGINX_TITLE })).toHaveCount(1);
    // Kubernetes has no runtime yet: its category is honestly empty.
    await page.getByLabel("difficulty").selectOption("all");
    await page.getByLabel("category").selectOption("kubernetes");
    await expect(page.getByTestId("no-challenges")).toHaveText("No challenges found");
    await page.getByLabel("category").selectOption("all");
    await page.getByLabel("search").fill(NGINX_TITLE);
    await expect(cards(page)).toHaveCount(1);

    // A card leads to its challenge page.
    await expect(cards(page).getByRole("link", { name: NGINX_TITLE })).toHaveAttribute("href", `/challenges/${NGINX}`);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the search form, selects and empty and error states work as a plain GET form", async ({ page }) => {
      const list = await catalogue();
      await page.goto("/challenges");
      await expect(cards(page)).toHaveCount(list.length);
      await page.getByLabel("search").fill("shop");
      await page.getByRole("button", { name: "search" }).click();
      await expect(page).toHaveURL(/\/challenges\?search=shop&category=all&difficulty=all&sort=votes$/);
      await expect(cards(page)).toHaveCount((await catalogue("&search=shop")).length);
      await expect(cards(page).filter({ hasText: NGINX_TITLE })).toHaveCount(1);
      await expect(page.getByLabel("search")).toHaveValue("shop");

      await page.getByLabel("search").fill("");
      await page.getByLabel("difficulty").selectOption("medium");
      await page.getByRole("button", { name: "search" }).click();
      await expect(cards(page)).toHaveCount(list.filter((c) => c.difficulty_level === "medium").length);
      await expect(cards(page).filter({ hasText: DISK_TITLE })).toHaveCount(1);
      await expect(page.getByLabel("difficulty")).toHaveValue("medium");

      await page.getByLabel("category").selectOption("kubernetes");
      await page.getByRole("button", { name: "search" }).click();
      await expect(page.getByTestId("no-challenges")).toHaveText("No challenges found");

      // An error from the API is shown as its message.
      await page.goto("/challenges?category=cooking");
      await expect(page.getByTestId("challenges-error")).toContainText("category: must be one of");
    });

    test("signed-in unverified users see the yellow notice", async ({ page }) => {
      const user = await createUser({ prefix: "unver", verified: false });
      await loginViaForm(page, user);
      await page.goto("/challenges");
      await expect(page.getByTestId("unverified-notice")).toContainText(
        "Email verification required to start challenges. Please check your email and verify your account.",
      );
      await expect(page.getByTestId("unverified-notice")).toHaveClass(/alert-warn/); // the yellow notice style
    });
  });
});

test.describe("leaderboard", () => {
  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("search, paging 'page / total' (15 a page, ranks continue) and periods", async ({ page }) => {
      const prefix = unique("lbn").slice(0, 24);
      const names = seedBoard(prefix);
      await page.goto("/leaderboard");
      await page.getByLabel("search").fill(prefix);
      await page.getByRole("button", { name: "search" }).click();
      const rows = page.getByTestId("leaderboard-row");
      await expect(rows).toHaveCount(15);
      await expect(page.getByTestId("page-indicator")).toHaveText("1 / 2");
      await expect(rows.first()).toHaveAttribute("data-username", names[0]!);
      await expect(rows.first().getByTestId("rank")).toContainText("#1");
      await expect(rows.first()).toContainText("90000");
      await expect(page.getByText("← prev")).toHaveAttribute("aria-disabled", "true");

      await page.getByRole("link", { name: "next →" }).click();
      await expect(page).toHaveURL(new RegExp(`search=${prefix}.*page=2`));
      await expect(page.getByTestId("page-indicator")).toHaveText("2 / 2");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toHaveAttribute("data-username", names[15]!);
      await expect(rows.first().getByTestId("rank")).toHaveText("#16");
      await expect(page.getByText("next →")).toHaveAttribute("aria-disabled", "true");
      await page.getByRole("link", { name: "← prev" }).click();
      await expect(page.getByTestId("page-indicator")).toHaveText("1 / 2");

      // Today: only the points scored today count (and ranks are over today's board).
      await page.getByLabel("period").selectOption("today");
      await page.getByRole("button", { name: "search" }).click();
      await expect(page).toHaveURL(/period=today/);
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0)).toHaveAttribute("data-username", names[9]!);
      await expect(rows.nth(0)).toContainText("700");
      await expect(rows.nth(1)).toHaveAttribute("data-username", names[5]!);
      await expect(page.getByTestId("page-indicator")).toHaveText("1 / 1");
      await expect(page.getByLabel("period")).toHaveValue("today");

      // A search keeps the board rank.
      await page.goto(`/leaderboard?search=${names[12]}`);
      await expect(rows).toHaveCount(1);
      await expect(rows.first().getByTestId("rank")).toHaveText("#13");
    });
  });

  test("with JavaScript: the next page is fetched ahead on intent only, paging and the period select work", async ({ page }) => {
    const prefix = unique("lbj").slice(0, 24);
    const names = seedBoard(prefix);
    const nextPageData: string[] = [];
    page.on("request", (r) => {
      if (/\/leaderboard\.data\?.*page=2/.test(r.url())) nextPageData.push(r.url());
    });
    await page.goto(`/leaderboard?search=${prefix}`);
    await page.waitForLoadState("networkidle");
    await expect(page.getByTestId("page-indicator")).toHaveText("1 / 2");
    // A visit computes the board once: page 2 is not fetched ahead on render.
    const prefetch = page.locator('link[rel="prefetch"][href*="/leaderboard.data"][href*="page=2"]');
    await expect(prefetch).toHaveCount(0);
    expect(nextPageData).toEqual([]);
    // Pointing at "next" fetches it ahead (React Router's intent prefetch, once hydrated).
    await page.getByRole("link", { name: "next →" }).hover();
    await expect(prefetch).toHaveCount(1);
    await page.getByRole("link", { name: "next →" }).click();
    await expect(page.getByTestId("page-indicator")).toHaveText("2 / 2");
    await expect(page.getByTestId("leaderboard-row").first()).toHaveAttribute("data-username", names[15]!);
    await page.getByLabel("period").selectOption("today");
    await expect(page).toHaveURL(/period=today/);
    await expect(page).not.toHaveURL(/page=2/);
    await expect(page.getByTestId("leaderboard-row")).toHaveCount(2);
  });
});

test.describe("profiles", () => {
  test("a public profile shows real points, rank, level, achievements and solutions; tabs are links", async ({ page }) => {
    const user = await createUser({ prefix: "prof" });
    insertSolve(user.username, NGINX, 100, { solveSeconds: 240 });
    insertSolve(user.username, DISK, 200, { solveSeconds: 200 });
    const apiUser = (await api("GET", `/users/${user.username}`)).data;
    expect(apiUser).toMatchObject({ total_points: 300, level: 0, challenges_completed: 2, average_time: 3.7 });

    await page.goto(`/profile/${user.username}`);
    const header = page.getByTestId("profile-header");
    await expect(header.getByRole("heading", { name: new RegExp(user.username) })).toBeVisible();
    await expect(page.getByTestId("profile-points")).toContainText("300");
    await expect(page.getByTestId("profile-level")).toContainText("0");
    await expect(page.getByTestId("profile-rank")).toContainText(`#${apiUser.rank}`);
    await expect(page.getByTestId("profile-challenges")).toContainText("2");
    await expect(page.getByTestId("profile-avg-time")).toContainText("3.7m");
    await expect(page.getByTestId("join-date")).toContainText(String(new Date().getUTCFullYear()));
    await expect(page.getByTestId("settings-button")).toHaveCount(0);

    // Overview: recent activity.
    await expect(page.getByTestId("activity-item").filter({ hasText: "unlocked First Blood" })).toBeVisible();
    await expect(page.getByTestId("activity-item").filter({ hasText: NGINX_TITLE })).toBeVisible();

    await page.getByRole("link", { name: "Achievements" }).click();
    await expect(page).toHaveURL(`/profile/${user.username}?tab=achievements`);
    const achievement = (title: string) => page.getByTestId("achievement").filter({ hasText: title });
    await expect(achievement("First Blood")).toHaveAttribute("data-unlocked", "true");
    await expect(achievement("Speed Demon")).toHaveAttribute("data-unlocked", "true");
    await expect(achievement("Point Collector")).toHaveAttribute("data-unlocked", "false");

    await page.getByRole("link", { name: /Solutions/ }).click();
    await expect(page).toHaveURL(`/profile/${user.username}?tab=solutions`);
    await expect(page.getByTestId("solution-row")).toHaveCount(2);
    await expect(page.getByTestId("solution-row").first()).toContainText(DISK_TITLE);

    // The owner sees the Settings button, on /profile and on their public page.
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/profile");
    await expect(page.getByTestId("settings-button")).toBeVisible();
    await expect(page.getByTestId("profile-points")).toContainText("300");
    await page.goto(`/profile/${user.username}`);
    await expect(page.getByTestId("settings-button")).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("profile tabs work and a missing user is the Not-found page with 404", async ({ page }) => {
      const name = unique("pnj");
      insertUser(name, 1_700_000_000_000); // created_at in milliseconds
      insertSolve(name, NGINX, 100);
      await page.goto(`/profile/${name}?tab=solutions`);
      await expect(page.getByTestId("solution-row")).toHaveCount(1);
      await expect(page.getByTestId("join-date")).toHaveText("joined November 14, 2023");
      await page.getByRole("link", { name: "Achievements" }).click();
      await expect(page.getByTestId("achievement").first()).toHaveAttribute("data-unlocked", "true");

      const res = await page.goto("/profile/nobody_by_this_name_here");
      expect(res?.status()).toBe(404);
      await expect(page.getByTestId("not-found")).toBeVisible();
    });
  });
});

test("home: real figures, featured challenges and the top of the leaderboard", async ({ page }) => {
  const before = (await api("GET", "/stats")).data;
  await page.goto("/");
  const after = (await api("GET", "/stats")).data;
  const figure = async (key: string) => Number((await page.getByTestId(`stat-${key}`).getByTestId("stat-value").textContent())!.replace(/,/g, ""));
  const all = (await catalogue()).length;
  expect(await figure("challenges")).toBe(all);
  for (const [key, field] of [
    ["solutions", "solutions"],
    ["hackers", "users"],
  ] as const) {
    const v = await figure(key);
    expect(v).toBeGreaterThanOrEqual(before[field]);
    expect(v).toBeLessThanOrEqual(after[field]);
  }
  expect(before.users).toBeGreaterThan(0);
  await expect(page.getByTestId("featured").getByTestId("challenge-card")).toHaveCount(Math.min(3, all));
  const rows = page.getByTestId("home-leaderboard").getByTestId("leaderboard-row");
  const board = (await api("GET", "/leaderboard?limit=11")).data;
  await expect(rows).toHaveCount(Math.min(11, board.total));
  await expect(page.getByRole("link", { name: "full leaderboard →" })).toHaveAttribute("href", "/leaderboard");
});

test("player pages at desktop and phone widths", async ({ page }) => {
  test.setTimeout(90_000);
  const prefix = unique("shot").slice(0, 20);
  seedBoard(prefix);
  const user = await createUser({ prefix: "shotprof" });
  insertSolve(user.username, NGINX, 100, { solveSeconds: 240 });

  await page.goto("/");
  await expect(page.getByTestId("stats-strip")).toBeVisible();
  await screenshots(page, "home");
  await page.goto("/challenges");
  await expect(cards(page)).toHaveCount((await catalogue()).length);
  await screenshots(page, "challenges");
  await page.goto("/challenges?search=no-such-thing");
  await expect(page.getByText("No challenges found")).toBeVisible();
  await screenshots(page, "challenges-empty");
  await page.goto(`/leaderboard?search=${prefix}`);
  await expect(page.getByTestId("page-indicator")).toHaveText("1 / 2");
  await screenshots(page, "leaderboard");
  await page.goto(`/profile/${user.username}`);
  await expect(page.getByTestId("profile-header")).toBeVisible();
  await screenshots(page, "profile-player");
  await page.goto(`/profile/${user.username}?tab=achievements`);
  await screenshots(page, "profile-player-achievements");
});
