// The challenge page against the real server, dockerd and SSH gateway: start a deployment,
// watch it become ready (live over the WebSocket with JavaScript; by the page refreshing itself
// without), connect with the real ssh client using the command the SSH box shows, fix the
// fault, submit (wrong first, then right), see the real solve time and rank, terminate. Plus the
// page's error texts (app/features/challenge/rules/texts.ts) that a browser can provoke.
// Over 350 lines: the cases share one deployment's life (start, ready, ssh, fix, submit,
//  terminate), in order.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import WebSocket from "ws";
import {
  api,
  apiLogin,
  createUser,
  gatewayHostKeyFingerprint,
  loginViaForm,
  logout,
  putSshKeyByApi,
  screenshots,
  sshKeyPair,
  type TestUser,
} from "./support.ts";

const NGINX = "nginx-broken-config";
const DISK = "disk-full-deleted-log";

// The nginx fault is chosen at random per deployment: repair whichever one it is, as a person
// reading `nginx -t` would.
const NGINX_FIX = String.raw`
conf=/etc/nginx/sites-available/shop
if grep -q '^    server_nmae ' "$conf"; then sed -i 's/^    server_nmae /    server_name /' "$conf"
elif grep -q 'shop-cache.conf' "$conf"; then sed -i '\|include /etc/nginx/snippets/shop-cache.conf;|d' "$conf"
elif grep -q '^    listen 80 default_server$' "$conf"; then sed -i 's/^\(    listen 80 default_server\)$/\1;/' "$conf"
else sed -i '0,/^    location \/static\/ {$/s//    }\n\n    location \/static\/ {/' "$conf"; fi
nginx -t && service nginx start
`;
const DISK_FIX = readFileSync(`challenges/${DISK}/solution.sh`, "utf8");

/** A verified user with an SSH key whose private half stays on disk for the ssh client. */
async function player(prefix: string) {
  const user = await createUser({ prefix });
  const keys = sshKeyPair(`${user.username}@e2e`);
  const token = await apiLogin(user);
  const put = await putSshKeyByApi(token, keys.privateKey);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { user, keys, token };
}

/** Runs `script` through the exact command shown in the SSH box (plus the key and no prompts). */
function runOverSsh(command: string, privateKey: string, script: string): string {
  const m = /^ssh -p (\d+) (\S+)@(\S+)$/.exec(command);
  expect(m, command).not.toBeNull();
  const [, port, user, host] = m!;
  return execFileSync(
    "ssh",
    [
      "-p",
      port!,
      "-i",
      privateKey,
      "-o",
      "IdentitiesOnly=yes",
      "-o",
      "BatchMode=yes",
      "-o",
      "StrictHostKeyChecking=no",
      "-o",
      "UserKnownHostsFile=/dev/null",
      "-o",
      "LogLevel=ERROR",
      `${user}@${host}`,
      "bash -s",
    ],
    { input: script, encoding: "utf8", timeout: 60_000 },
  );
}

const status = (page: Page) => page.getByTestId("deployment-status");

test.describe("with JavaScript", () => {
  test("start, watch it become ready live, ssh in, fix, submit, see real time and rank, terminate", async ({ page }) => {
    test.setTimeout(180_000);
    const { user, keys } = await player("cjs");
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
    try {
      await loginViaForm(page, user);
      await page.goto(`/challenges/${NGINX}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("The shop is down: nginx will not start");
      await expect(page.getByTestId("difficulty")).toHaveText("easy");
      await expect(page.getByTestId("difficulty")).toHaveClass(/emerald/);
      await expect(page.getByTestId("challenge-points")).toHaveText("100 pts");
      await expect(page.getByTestId("challenge-time")).toHaveText("~15 min");
      await expect(page.getByTestId("challenge-category")).toHaveText("#linux");
      await expect(page.getByTestId("back-button")).toHaveAttribute("href", "/challenges");
      await expect(status(page)).toHaveAttribute("data-status", "idle");
      await expect(page.getByTestId("start-button")).toBeEnabled();
      await expect(page.getByTestId("extend-button")).toBeDisabled();
      await expect(page.getByTestId("terminate-button")).toBeDisabled();
      // Instructions and the submit form wait for a ready deployment.
      await expect(page.getByTestId("instructions")).toHaveCount(0);

      // No full reload from here on: a marker on window survives only client-side updates.
      await page.evaluate(() => ((window as any).__noReload = true));
      const frames: string[] = [];
      page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(String(f.payload))));

      await page.getByTestId("start-button").click();
      await expect(status(page)).not.toHaveAttribute("data-status", "idle");
      await expect(page.getByTestId("start-button")).toBeDisabled();
      await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", /live|connecting/);
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      // It arrived over the live channel, not by polling.
      expect(frames.some((f) => f.includes('"deployment_ready"') || f.includes('"status":"ready"'))).toBe(true);

      await expect(page.getByTestId("extend-button")).toBeEnabled();
      await expect(page.getByTestId("terminate-button")).toBeEnabled();
      const command = (await page.getByTestId("ssh-command").textContent())!.trim();
      expect(command).toMatch(/^ssh -p \d+ \S+@\S+$/);
      // The server's key to check the first connection against: the gateway's own.
      await expect(page.getByTestId("ssh-host-key")).toHaveText(gatewayHostKeyFingerprint());
      await expect(page.getByTestId("countdown")).toHaveText(/^(29|30):\d\d$/);
      await expect(page.getByTestId("countdown")).toHaveAttribute("data-warning", "false");
      await expect(page.getByTestId("instructions")).toContainText("You are root on web01");

      // Extend: 30 more minutes, without a reload.
      await page.getByTestId("extend-button").click();
      await expect(page.getByTestId("countdown")).toHaveText(/^(59|60):\d\d$/);
      await expect(page.getByTestId("extend-error")).toHaveCount(0);

      // The copy button puts the command on the clipboard.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByTestId("ssh-copy").click();
      await expect(page.getByTestId("ssh-copy")).toHaveText("copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

      await screenshots(page, "challenge-ready");

      // Before the fix: the check refuses, with the page's texts.
      await page.getByLabel("solution").fill("I looked at it.");
      await page.getByTestId("submit-button").click();
      const failed = page.getByTestId("validation-failed");
      await expect(failed).toBeVisible({ timeout: 30_000 });
      await expect(failed).toContainText("Validation Failed");
      await expect(failed).toContainText("Please fix the issue and try submitting again.");
      await expect(page.getByTestId("validation-feedback")).not.toBeEmpty();
      await screenshots(page, "challenge-validation-failed");

      // The real ssh client, with the command from the SSH box.
      runOverSsh(command, keys.privateKey, NGINX_FIX);

      await page.getByLabel("solution").fill("nginx -t pointed at the broken line of the shop's site; fixed it and started nginx.");
      await page.getByTestId("submit-button").click();
      const success = page.getByTestId("success-screen");
      await expect(success).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("solve-time")).toHaveText(/^\d+m \d\ds$/);
      await expect(page.getByTestId("solve-rank")).toHaveText(/^rank \d+ of \d+$/);
      await expect(page.getByTestId("points-earned")).toHaveText("+100");
      // Real figures, not placeholders.
      await expect(page.getByTestId("solve-time")).not.toHaveText("25m 30s");
      await expect(page.getByTestId("solve-rank")).not.toHaveText("rank 42 of 100");
      // The first solve unlocks an achievement: the toast shows it, then goes after 5 s.
      const toast = page.getByTestId("achievement-toast");
      await expect(toast).toBeVisible();
      await expect(toast).toContainText(/xp/);
      await screenshots(page, "challenge-success");
      await expect(toast).toBeHidden({ timeout: 8_000 });
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);

      // The global banner elsewhere: link, status dot, countdown; dismissed for this deployment.
      await page.getByRole("link", { name: "leaderboard/" }).first().click();
      await expect(page).toHaveURL("/leaderboard");
      const banner = page.getByTestId("global-banner");
      await expect(banner).toBeVisible();
      await expect(banner.getByRole("link", { name: "The shop is down: nginx will not start" })).toHaveAttribute("href", `/challenges/${NGINX}`);
      await expect(page.getByTestId("global-banner-status")).toHaveAttribute("data-status", "ready");
      await expect(page.getByTestId("global-banner-countdown")).toHaveText(/^\d\d:\d\d$/);
      await screenshots(page, "global-banner");
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/banner/dismiss")),
        banner.getByRole("button", { name: /dismiss/i }).click(),
      ]);
      await expect(banner).toBeHidden();
      // Remembered for this deployment: a fresh page load does not show it again.
      await page.goto("/faq");
      await expect(page.locator("main")).toBeVisible();
      await expect(page.getByTestId("global-banner")).toHaveCount(0);

      // On today's leaderboard with the points just earned, and on the profile with First Blood.
      await page.goto("/leaderboard");
      await page.getByLabel("period").selectOption("today");
      await expect(page).toHaveURL(/period=today/);
      await page.getByLabel("search").fill(user.username);
      const row = page.locator(`[data-testid="leaderboard-row"][data-username="${user.username}"]`);
      await expect(row).toBeVisible();
      await expect(row).toContainText("100");
      await expect(row).toHaveAttribute("aria-current", "true");
      await page.goto("/profile?tab=achievements");
      const firstBlood = page.getByTestId("achievement").filter({ hasText: "First Blood" });
      await expect(firstBlood).toHaveAttribute("data-unlocked", "true");
      await expect(page.getByTestId("profile-challenges")).toContainText("1");

      // Terminate: the deployment ends, start is possible again.
      await page.goto(`/challenges/${NGINX}`);
      await expect(status(page)).toHaveAttribute("data-status", "ready");
      await page.getByTestId("terminate-button").click();
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/);
      await expect(page.getByTestId("ssh-box")).toHaveCount(0);
      await expect(page.getByTestId("start-button")).toBeEnabled();
      await expect(page.getByTestId("countdown")).toHaveCount(0);
      // The server-rendered page hydrates cleanly (static expiry, noscript refresh, no JS-only parts).
      expect(consoleErrors.filter((e) => /hydrat|did not match|Minified React error/i.test(e))).toEqual([]);
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});

test.describe("the countdown", () => {
  test("turns red with a warning under 5 minutes and terminates the deployment at zero", async ({ page }) => {
    test.setTimeout(150_000);
    const { user, keys } = await player("cclock");
    try {
      // The browser's clock is ours to move; the server's is not.
      await page.clock.install();
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      await page.getByTestId("start-button").click();
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      await expect(page.getByTestId("countdown")).toHaveAttribute("data-warning", "false");
      await expect(page.getByTestId("expiry-warning")).toHaveCount(0);

      const left = await page.getByTestId("countdown").textContent();
      const [m, s] = left!.split(":").map(Number);
      // To 4:50 left.
      await page.clock.fastForward((m! * 60 + s! - 290) * 1000);
      await expect(page.getByTestId("countdown")).toHaveAttribute("data-warning", "true");
      await expect(page.getByTestId("countdown")).toHaveText(/^04:[45]\d$/);
      await expect(page.getByTestId("countdown")).toHaveCSS("color", /rgb\((2[0-9]{2}), (3\d|6\d|[4-7]\d), (6\d|[4-7]\d)\)/);
      await expect(page.getByTestId("expiry-warning")).toBeVisible();
      await screenshots(page, "challenge-expiring");

      // To zero: the page terminates the deployment itself.
      await page.clock.fastForward(300_000);
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/, { timeout: 20_000 });
      await expect(page.getByTestId("start-button")).toBeEnabled();
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});

test.describe("when the live channel is unavailable", () => {
  test("reconnects 5 times with backoff, then polls the web's status route every 5 s until ready", async ({ page }) => {
    test.setTimeout(150_000);
    const { user, keys } = await player("cpoll");
    try {
      await page.clock.install();
      // Every socket is cut before it opens (an unclean close, as a broken proxy would do).
      const attempts: number[] = [];
      await page.routeWebSocket(/\/ws\/deployments\//, (ws) => {
        attempts.push(Date.now());
        ws.close({ code: 4500, reason: "proxy error" });
      });
      const polls: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname === `/challenges/${DISK}/status`) polls.push(r.url());
      });
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      await page.getByTestId("start-button").click();
      await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", /reconnecting|connecting/);
      // 1 + 2 + 4 + 8 + 16 s of backoff.
      for (let i = 0; i < 6 && attempts.length < 6; i++) {
        await page.clock.fastForward(1_000 * 2 ** i);
        await expect.poll(() => attempts.length).toBeGreaterThanOrEqual(Math.min(6, i + 2));
      }
      expect(attempts).toHaveLength(6);
      await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", "polling");
      // Polls every 5 s through the web (with the sign-in cookie) until the deployment is ready.
      await expect(async () => {
        await page.clock.fastForward(5_000);
        await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 1_000 });
      }).toPass({ timeout: 90_000 });
      await expect(page.getByTestId("ssh-command")).toHaveText(/^ssh -p \d+ \S+@\S+$/);
      expect(polls.length).toBeGreaterThan(0);
      // No more reconnects once polling took over.
      expect(attempts).toHaveLength(6);
      await page.getByTestId("terminate-button").click();
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/);
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });

  test("'Authentication required' from the live channel: said so, and polling takes over", async ({ page }) => {
    test.setTimeout(120_000);
    const { user, keys } = await player("cauth");
    try {
      await page.routeWebSocket(/\/ws\/deployments\//, (ws) => ws.close({ code: 4401, reason: "Authentication required" }));
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      await page.getByTestId("start-button").click();
      await expect(page.getByTestId("live-notice")).toContainText("Authentication required");
      await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", "polling");
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      await page.getByTestId("terminate-button").click();
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/);
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });

  test("the real live channel takes the sign-in cookie from this site's pages only; anything else is 'Authentication required'", async ({ page }) => {
    const NOBODYS = "00000000-0000-4000-8000-000000000000";
    /** Opens the channel from the page (the browser sends its cookie and the page's Origin). */
    const fromPage = (query = "") =>
      page.evaluate(
        ([id, q]) =>
          new Promise<{ code: number; reason: string }>((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/deployments/${id}${q}`);
            ws.onclose = (e) => resolve({ code: e.code, reason: e.reason });
          }),
        [NOBODYS, query] as const,
      );
    // Signed out: no cookie, and a token in the URL is not a way in either.
    await page.goto("/faq");
    expect(await fromPage()).toEqual({ code: 4401, reason: "Authentication required" });
    const user = await createUser({ prefix: "cws" });
    const token = await apiLogin(user);
    expect(await fromPage(`?token=${encodeURIComponent(token)}`)).toEqual({ code: 4401, reason: "Authentication required" });

    // Signed in: the cookie gets past authentication (an unknown deployment is then 4404).
    await loginViaForm(page, user);
    await page.goto("/faq");
    expect(await fromPage()).toEqual({ code: 4404, reason: "Deployment not found" });

    // The same cookie from a page elsewhere, or with no Origin: refused.
    const cookie = (await page.context().cookies())
      .filter((c) => c.name.includes("faultline"))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    expect(cookie).toMatch(/^__faultline=/);
    const fromElsewhere = (headers: Record<string, string>) =>
      new Promise<{ code: number; reason: string }>((resolve) => {
        const ws = new WebSocket(`ws://localhost:3100/ws/deployments/${NOBODYS}`, { headers });
        ws.on("close", (code, reason) => resolve({ code, reason: String(reason) }));
        ws.on("error", () => {});
      });
    expect(await fromElsewhere({ cookie, origin: "http://evil.example" })).toEqual({ code: 4401, reason: "Authentication required" });
    expect(await fromElsewhere({ cookie, origin: "http://127.0.0.1:3100" })).toEqual({ code: 4401, reason: "Authentication required" });
    expect(await fromElsewhere({ cookie })).toEqual({ code: 4401, reason: "Authentication required" });
    expect(await fromElsewhere({ cookie: "__faultline=forged", origin: "http://localhost:3100" })).toEqual({ code: 4401, reason: "Authentication required" });
    expect(await fromElsewhere({ cookie, origin: "http://localhost:3100" })).toEqual({ code: 4404, reason: "Deployment not found" });
  });

  test("no access token or JWT in the challenge page, its loader data or the status route", async ({ page }) => {
    const user = await createUser({ prefix: "cnotoken" });
    await loginViaForm(page, user);
    await page.goto(`/challenges/${DISK}`);
    await expect(page.getByTestId("session-panel")).toBeVisible();
    const answers = {
      dom: await page.content(),
      html: await (await page.request.get(`/challenges/${DISK}`)).text(),
      loaderData: await (await page.request.get(`/challenges/${DISK}.data`)).text(),
      status: await (await page.request.get(`/challenges/${DISK}/status`)).text(),
    };
    expect(JSON.parse(answers.status)).toEqual({ session: expect.objectContaining({ status: "idle" }) });
    expect(answers.html).toContain("session");
    for (const [what, text] of Object.entries(answers)) {
      // Every JWT starts with a base64url JSON header: "eyJ".
      expect(text, what).not.toContain("eyJ");
      expect(text, what).not.toMatch(/"token"|access_token|refresh_token/);
    }
  });
});

test.describe("the live channel and the sign-in", () => {
  test("signing out (in another tab) closes the page's live socket", async ({ browser }) => {
    test.setTimeout(120_000);
    const { user, keys, token } = await player("cout");
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      const sockets: { closed: Promise<void> }[] = [];
      page.on("websocket", (ws) => sockets.push({ closed: new Promise((resolve) => ws.on("close", () => resolve())) }));
      await page.getByTestId("start-button").click();
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      await expect(page.getByTestId("live-mode")).toHaveAttribute("data-mode", "live");
      expect(sockets).toHaveLength(1);

      const other = await context.newPage();
      await other.goto("/faq");
      await logout(other);
      // The server closes it at once (the session it was opened under ended).
      await Promise.race([sockets[0]!.closed, new Promise((_, reject) => setTimeout(() => reject(new Error("socket still open 5 s after sign-out")), 5_000))]);
      await expect(page.getByTestId("live-notice")).toContainText("Authentication required");
    } finally {
      await api("POST", `/challenges/${DISK}/session/terminate`, {}, token);
      await context.close();
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});

test.describe("a deployment that fails", () => {
  test("the container dies: 'Deployment failed.' arrives live with the reason; Retry starts a new one", async ({ page }) => {
    test.setTimeout(240_000);
    const { user, keys, token } = await player("cfail");
    try {
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      await page.getByTestId("start-button").click();
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      const s = await api("GET", `/challenges/${DISK}/active-session`, undefined, token);
      const id = s.data.deployment_id as string;
      // Pull the rug: the platform notices on its next reconciliation (every 15 s).
      const ids = execFileSync("docker", ["ps", "-q", "--filter", `label=faultline.deployment=${id}`], { encoding: "utf8" })
        .split(/\s+/)
        .filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      execFileSync("docker", ["rm", "-f", ...ids]);
      const banner = page.getByTestId("deployment-failed");
      await expect(banner).toBeVisible({ timeout: 90_000 });
      await expect(banner).toContainText(/^Deployment failed\. \S/);
      await expect(status(page)).toHaveAttribute("data-status", "failed");
      await expect(page.getByTestId("ssh-box")).toHaveCount(0);
      await expect(page.getByTestId("extend-button")).toBeDisabled();
      await screenshots(page, "challenge-failed");

      await page.getByTestId("retry-button").click();
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      await expect(page.getByTestId("deployment-failed")).toHaveCount(0);
      await page.getByTestId("terminate-button").click();
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/);
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("start by form post, the page refreshes itself until ready, fix over ssh, submit, terminate", async ({ page }) => {
    test.setTimeout(180_000);
    const { user, keys } = await player("cnojs");
    try {
      await loginViaForm(page, user);
      await page.goto(`/challenges/${DISK}`);
      await expect(status(page)).toHaveAttribute("data-status", "idle");
      await expect(page.getByTestId("ssh-copy")).toHaveCount(0);

      await page.getByTestId("start-button").click();
      await expect(page).toHaveURL(`/challenges/${DISK}`);
      // While queued/deploying the page carries a refresh; it becomes ready with no clicks.
      await expect(status(page)).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
      // A static expiry time instead of a ticking timer.
      await expect(page.getByTestId("countdown")).toHaveText(/^expires at \d\d:\d\d UTC$/);
      const command = (await page.getByTestId("ssh-command").textContent())!.trim();
      expect(command).toMatch(/^ssh -p \d+ \S+@\S+$/);

      // Wrong first.
      await page.getByLabel("solution").fill("not yet");
      await page.getByTestId("submit-button").click();
      await expect(page.getByTestId("validation-failed")).toContainText("Validation Failed");
      await expect(page.getByTestId("validation-failed")).toContainText("Please fix the issue and try submitting again.");
      await expect(page.getByLabel("solution")).toHaveValue("not yet");

      runOverSsh(command, keys.privateKey, DISK_FIX);
      await page.getByLabel("solution").fill("A deleted log was still held open by ledgerd; truncated it through /proc and restarted ledgerd.");
      await page.getByTestId("submit-button").click();
      await expect(page.getByTestId("success-screen")).toBeVisible();
      await expect(page.getByTestId("solve-time")).toHaveText(/^\d+m \d\ds$/);
      await expect(page.getByTestId("solve-rank")).toHaveText(/^rank \d+ of \d+$/);

      // The banner on another page, dismissed by a plain form post.
      await page.goto("/faq");
      await expect(page.getByTestId("global-banner")).toBeVisible();
      await expect(page.getByTestId("global-banner-countdown")).toHaveText(/^expires at /);
      await page
        .getByTestId("global-banner")
        .getByRole("button", { name: /dismiss/i })
        .click();
      await expect(page).toHaveURL("/faq");
      await expect(page.getByTestId("global-banner")).toHaveCount(0);

      await page.goto(`/challenges/${DISK}`);
      await page.getByTestId("terminate-button").click();
      await expect(page).toHaveURL(`/challenges/${DISK}`);
      await expect(status(page)).toHaveAttribute("data-status", /terminated|idle/);
      await expect(page.getByTestId("start-button")).toBeEnabled();
    } finally {
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });

  test("the page's error texts: unverified, no SSH key, extend/terminate/submit without a deployment, 404", async ({ page }) => {
    // Unverified: the banner text and a disabled start.
    const unverified = await createUser({ prefix: "cunv", verified: false });
    await loginViaForm(page, unverified);
    await page.goto(`/challenges/${NGINX}`);
    await expect(page.getByTestId("verification-required")).toHaveText(
      "Email verification required to start challenges. Please check your email and verify your account.",
    );
    await expect(page.getByTestId("start-button")).toBeDisabled();

    // A verified user without a key: the start is refused with the server's detail.
    const nokey: TestUser = await createUser({ prefix: "cnokey" });
    await page.context().clearCookies();
    await loginViaForm(page, nokey);
    await page.goto(`/challenges/${NGINX}`);
    await expect(page.getByTestId("ssh-key-required")).toContainText("An SSH key is required to access challenge environments.");
    await page.getByTestId("start-button").click();
    await expect(page.getByTestId("start-error")).toContainText(/SSH key/i);

    // The buttons are disabled in these states: post the forms by hand (as a stale page or a
    // second tab would) and render the answer.
    const postForm = async (fields: Record<string, string>) => {
      const res = await page.request.post(`/challenges/${NGINX}`, { form: fields, maxRedirects: 0 });
      await page.setContent(await res.text());
      return res.status();
    };
    expect(await postForm({ intent: "extend" })).toBeGreaterThanOrEqual(400);
    await expect(page.getByTestId("extend-error")).toHaveText(/^Extend failed: \S/);
    // Dismissible: without JavaScript a link back to the page (which has no error).
    await expect(page.getByTestId("extend-error").getByRole("link", { name: /dismiss/ })).toHaveAttribute("href", `/challenges/${NGINX}`);
    expect(await postForm({ intent: "terminate" })).toBeGreaterThanOrEqual(400);
    await expect(page.getByTestId("terminate-error")).toHaveText(/^Terminate failed: \S/);
    expect(await postForm({ intent: "submit", solution: "x", deployment_uid: "" })).toBe(400);
    await expect(page.getByTestId("submit-error")).toHaveText("No active deployment found. Please start the challenge first.");
    // A made-up deployment id: the server's own answer.
    expect(await postForm({ intent: "submit", solution: "x", deployment_uid: "00000000-0000-4000-8000-000000000000" })).toBe(400);
    await expect(page.getByTestId("submit-error")).toHaveText("No active deployment found. Please start the challenge first.");

    // An unknown challenge is the Not-found page with status 404.
    const res = await page.goto("/challenges/no-such-challenge");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
  });
});
