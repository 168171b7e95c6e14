// Who may open what: protected routes send visitors to /login and back, signed-in users skip
// /login, /admin needs an administrator, unknown paths are a 404 page, cross-site posts are refused.
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { api, createUser, DATA_DIR, expectSignedInAs, loginViaForm } from "./support.ts";

test.describe("protected routes", () => {
  for (const path of ["/profile", "/profile/settings", "/challenges/x"]) {
    test(`${path} sends a visitor to /login and back after login`, async ({ page }) => {
      const user = await createUser({ prefix: "guard" });
      await page.goto(path);
      await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(path)}`);
      await loginViaForm(page, user, "");
      await expect(page).toHaveURL(path);
      await expectSignedInAs(page, user.username);
    });
  }

  test("/admin sends a visitor to /login; a non-admin lands on /unauthorized, an admin gets in", async ({ page }) => {
    const user = await createUser({ prefix: "notadmin" });
    await page.goto("/admin");
    await expect(page).toHaveURL("/login?redirectTo=%2Fadmin");
    await loginViaForm(page, user, "");
    await expect(page).toHaveURL("/unauthorized");
    await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
    await expect(
      page.getByText("You don't have sufficient permissions to access this resource. Please authenticate or request access from an administrator."),
    ).toBeVisible();
    const direct = await page.goto("/admin");
    expect(page.url()).toMatch(/\/unauthorized$/);
    expect(direct?.status()).toBe(403);

    // The operator's command line makes the user an administrator; the next request sees it.
    execFileSync("npx", ["tsx", "server/cli.ts", "grant", user.username], {
      env: { ...process.env, DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "warn" },
      stdio: "pipe",
    });
    await page.goto("/admin");
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "admin/" }).first()).toBeAttached();
  });

  test("a signed-in user opening /login or /register goes to /profile", async ({ page }) => {
    const user = await createUser({ prefix: "already" });
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/profile");
    await page.goto("/login");
    await expect(page).toHaveURL("/profile");
    await page.goto("/register");
    await expect(page).toHaveURL("/profile");
    await page.goto("/auth");
    await expect(page).toHaveURL("/profile");
  });

  test("a redirectTo pointing at another site is not followed", async ({ page }) => {
    const user = await createUser({ prefix: "redir" });
    await page.goto("/login?redirectTo=" + encodeURIComponent("//evil.example/phish"));
    await loginViaForm(page, user, "");
    await expect(page).toHaveURL("/profile");
  });
});

test("an unknown path shows the Not-found page echoing the path, with HTTP 404", async ({ page }) => {
  const res = await page.goto("/no/such/place");
  expect(res?.status()).toBe(404);
  const notFound = page.getByTestId("not-found");
  await expect(notFound).toContainText("/no/such/place");
  await expect(notFound.getByRole("heading", { name: /404/ })).toBeVisible();
  await expect(notFound.getByRole("link", { name: "cd ~" })).toHaveAttribute("href", "/");

  const missingProfile = await page.goto("/profile/nobody_by_this_name");
  expect(missingProfile?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
});

test.describe("cross-site form posts", () => {
  test("a form on another site cannot sign the user out, switch the theme or register an account", async ({ page, context }) => {
    const user = await createUser({ prefix: "csrf" });
    await loginViaForm(page, user);
    await expect(page).toHaveURL("/profile");

    // A page on another origin with forms aimed at faultline, submitted by the real browser.
    const victim = "csrf_victim_" + Date.now().toString(36);
    await context.route("http://evil.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>evil</title>
          <form id="out" method="post" action="http://localhost:3100/logout"><button>go</button></form>
          <form id="theme" method="post" action="http://localhost:3100/theme"><input name="theme" value="light"><button>go</button></form>
          <form id="reg" method="post" action="http://localhost:3100/register">
            <input name="username" value="${victim}"><input name="email" value="${victim}@evil.example">
            <input name="password" value="password123"><input name="confirmPassword" value="password123">
            <button>go</button></form>`,
      }),
    );
    const evil = await context.newPage();
    for (const form of ["#out", "#theme", "#reg"]) {
      await evil.goto("http://evil.example/");
      const [response] = await Promise.all([
        evil.waitForResponse((r) => r.url().startsWith("http://localhost:3100/") && r.request().method() === "POST"),
        evil.locator(`${form} button`).click(),
      ]);
      expect(response.request().headers()["origin"]).toBe("http://evil.example");
      expect(response.status()).toBe(403);
    }

    await page.reload();
    await expectSignedInAs(page, user.username);
    expect((await api("GET", `/users/${victim}`)).status).toBe(404);
  });

  test("the same posts from faultline's own pages work", async ({ page }) => {
    const user = await createUser({ prefix: "sameorigin" });
    await loginViaForm(page, user);
    await expectSignedInAs(page, user.username);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/logout") && r.request().method() === "POST"),
      page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "logout" }).first().click(),
    ]);
    expect(response.status()).toBeLessThan(400);
    await expect(page.getByRole("link", { name: "login.sh" }).first()).toBeVisible();
  });

  test("a scripted cross-site POST with a foreign Origin is refused", async ({ request }) => {
    const res = await request.post("/login", {
      headers: { origin: "http://evil.example" },
      form: { username: "someone", password: "whatever1" },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    // The JSON API takes Bearer tokens, not cookies: it is not a form target and stays open.
    const apiRes = await request.post("/api/v1/auth/login", {
      headers: { origin: "http://evil.example" },
      data: { username_or_email: "someone", password: "whatever1" },
    });
    expect(apiRes.status()).toBe(401);
  });
});

test.describe("Content-Security-Policy", () => {
  test("pages hydrate under the policy: no violation, and links navigate without reloading the page", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        (window as unknown as { __cspViolations: string[] }).__cspViolations ??= [];
        (window as unknown as { __cspViolations: string[] }).__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const user = await createUser({ prefix: "csp" });
    await loginViaForm(page, user);
    for (const path of ["/", "/challenges", "/leaderboard", "/profile/settings?tab=security"]) {
      const res = await page.goto(path);
      expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
      await page.waitForLoadState("networkidle");
    }
    // A client-side navigation keeps the window: the page was hydrated (its scripts ran).
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));
    // (The pricing/ button opens a dialog now: a plain nav link is the navigation to take.)
    await page.getByRole("link", { name: "leaderboard/" }).first().click();
    await expect(page).toHaveURL("/leaderboard");
    expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])).toEqual([]);
    expect(violations).toEqual([]);
  });
});
