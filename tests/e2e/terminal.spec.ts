// The browser terminal against the real server, dockerd and exec path: xterm.js loads
// only when opened (under the CSP, without 'unsafe-eval'), a command runs, resizing the window
// changes `stty size`, the socket drops while offline and the page reconnects to the same shell
// (its background process still running), the challenge is solved from the terminal alone, and
// the deployment's end is said in the panel. Another user's cookie, or no Origin, cannot open the
// socket; the page carries no token.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import WebSocket from "ws";
import { userId } from "./player-support.ts";
import { api, apiLogin, createUser, DATA_DIR, loginViaForm, putSshKeyByApi, sshKeyPair } from "./support.ts";

const DISK = "disk-full-deleted-log";
const screen = (page: Page) => page.getByTestId("terminal-screen").locator(".xterm-rows");
const termState = (page: Page) => page.getByTestId("terminal-state");

async function player(prefix: string) {
  const user = await createUser({ prefix });
  const keys = sshKeyPair(`${user.username}@e2e`);
  const put = await putSshKeyByApi(await apiLogin(user), keys.privateKey);
  expect(put.status).toBe(200);
  return user;
}

/** Types a line into the terminal (it has the keyboard focus). */
async function run(page: Page, line: string) {
  await page.getByTestId("terminal-screen").click();
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

test("open, run, resize, reconnect to the same shell, solve from the browser alone, the end is said", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const user = await player("term");
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => ((window as any).__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const xtermChunks: string[] = [];
  page.on("request", (r) => {
    if (/xterm/i.test(r.url())) xtermChunks.push(r.url());
  });
  // Sockets to the terminal pass through here, so the test can cut them like a network would.
  const cut: (() => void)[] = [];
  await page.routeWebSocket(/\/ws\/terminal\//, (ws) => {
    const server = ws.connectToServer();
    cut.push(() => {
      ws.close({ code: 1001, reason: "network gone" });
      server.close();
    });
  });

  await loginViaForm(page, user);
  await page.goto(`/challenges/${DISK}`);
  await page.getByTestId("start-button").click();
  await expect(page.getByTestId("deployment-status")).toHaveAttribute("data-status", "ready", { timeout: 90_000 });

  // No token in the page's HTML (loader data included), and no xterm code before opening.
  const html = await (await page.request.get(`/challenges/${DISK}`)).text();
  expect(html).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
  expect(html).not.toMatch(/access_token|refresh_token/);
  await expect(page.getByTestId("terminal-open")).toBeVisible();
  expect(xtermChunks).toEqual([]);

  await page.getByTestId("terminal-open").click();
  await expect(termState(page)).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  expect(xtermChunks.length).toBeGreaterThan(0);
  await expect(screen(page)).toContainText("root@", { timeout: 15_000 });
  await run(page, "echo hello-$((6 * 7))");
  await expect(screen(page)).toContainText("hello-42");

  // The window's size reaches the shell.
  const size = async () =>
    /SIZE=(\d+) (\d+)=/
      .exec((await screen(page).innerText()).replace(/\s+/g, " "))
      ?.slice(1, 3)
      .join("x") ?? null;
  await run(page, "clear; stty size | sed 's/^/SIZE=/; s/$/=/'");
  await expect.poll(size, { timeout: 10_000 }).toMatch(/^\d+x\d+$/);
  const first = await size();
  await page.setViewportSize({ width: 700, height: 800 });
  await page.waitForTimeout(500);
  await run(page, "clear; stty size | sed 's/^/SIZE=/; s/$/=/'");
  await expect.poll(size, { timeout: 10_000 }).toMatch(/^\d+x\d+$/);
  await expect.poll(size, { timeout: 10_000 }).not.toBe(first);

  // A background process, then the network goes away and comes back: the same shell.
  await run(page, "clear; (while true; do sleep 1; done) & echo BG=$!");
  await expect(screen(page)).toContainText(/BG=\d+/);
  const bg = /BG=(\d+)/.exec(await screen(page).innerText())![1]!;
  await page.context().setOffline(true);
  for (const c of cut.splice(0)) c();
  await expect(termState(page)).toHaveAttribute("data-state", "reconnecting");
  await page.waitForTimeout(2000);
  await page.context().setOffline(false);
  await expect(termState(page)).toHaveAttribute("data-state", "open", { timeout: 20_000 });
  await run(page, `kill -0 ${bg} && echo STILL-$((1000 + ${bg}))`);
  await expect(screen(page)).toContainText(`STILL-${1000 + Number(bg)}`);

  // Solve it from the browser terminal alone, then submit.
  await run(
    page,
    `clear; for fd in /proc/[0-9]*/fd/*; do case "$(readlink $fd)" in /srv/*"(deleted)") : > $fd ;; esac; done; service ledgerd restart; sleep 2; echo FIXED`,
  );
  await expect(screen(page)).toContainText("FIXED", { timeout: 30_000 });
  await page.getByLabel("solution").fill("ledgerd held its deleted log open: truncated it through /proc and restarted ledgerd, from the browser terminal.");
  await page.getByTestId("submit-button").click();
  await expect(page.getByTestId("success-screen")).toBeVisible({ timeout: 60_000 });

  // A second tab takes the terminal over (one tab at a time); the first says so.
  const other = await page.context().newPage();
  await other.goto(`/challenges/${DISK}`);
  await other.getByTestId("terminal-open").click();
  await expect(other.getByTestId("terminal-state")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  await expect(page.getByTestId("terminal-message")).toContainText("open in another tab");
  await expect(other.getByTestId("terminal-screen").locator(".xterm-rows")).toContainText("FIXED");
  await other.close();
  await page.getByTestId("terminal-reconnect").click();
  await expect(termState(page)).toHaveAttribute("data-state", "open", { timeout: 15_000 });

  // The deployment ends: the panel says so.
  await page.getByTestId("terminate-button").click();
  await expect(page.getByTestId("terminal-message")).toContainText("This faultline deployment has ended", { timeout: 30_000 });
  await expect(screen(page)).toContainText("This faultline deployment has ended");

  // The browser shell was recorded like an ssh one: asciicast v2 with what was typed.
  const dir = join(DATA_DIR, "recordings", userId(user.username));
  const web = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .find((text) => JSON.parse(text.split("\n")[0]!).title === `${DISK} (web)`);
  expect(web).toBeDefined();
  const typed = web!
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as [number, string, string])
    .filter((e) => e[1] === "i")
    .map((e) => e[2])
    .join("");
  expect(typed).toContain("echo hello-$((6 * 7))\r");

  expect(violations).toEqual([]);
  expect(await page.evaluate(() => (window as any).__csp ?? [])).toEqual([]);
  void browser;
});

test("only the deployment's owner, from this site's pages, can open its terminal", async ({ page }) => {
  test.setTimeout(150_000);
  const owner = await player("town");
  await loginViaForm(page, owner);
  await page.goto(`/challenges/${DISK}`);
  await page.getByTestId("start-button").click();
  await expect(page.getByTestId("deployment-status")).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
  const id = await deploymentIdOf(owner);
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  const cookieOf = async (p: Page) =>
    (await p.context().cookies())
      .filter((c) => c.name.includes("faultline"))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  const open = (headers: Record<string, string>) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(`ws://localhost:3100/ws/terminal/${id}?cols=80&rows=24`, { headers });
      ws.on("message", (data, binary) => {
        if (!binary && JSON.parse(String(data)).type === "attached") ws.close(1000);
      });
      ws.on("close", (code, reason) => resolve({ code, reason: String(reason) }));
      ws.on("error", () => {});
    });

  const stranger = await page.context().browser()!.newContext();
  const strangerPage = await stranger.newPage();
  await loginViaForm(strangerPage, await player("tstr"));
  const theirs = await cookieOf(strangerPage);
  expect(await open({ cookie: theirs, origin: "http://localhost:3100" })).toEqual({ code: 4404, reason: "Deployment not found" });
  const mine = await cookieOf(page);
  expect(await open({ cookie: mine, origin: "http://evil.example" })).toEqual({ code: 4401, reason: "Authentication required" });
  expect(await open({ cookie: mine })).toEqual({ code: 4401, reason: "Authentication required" });
  expect(await open({ origin: "http://localhost:3100" })).toEqual({ code: 4401, reason: "Authentication required" });
  // The owner from this site gets in (attached, then closed by the test).
  expect((await open({ cookie: mine, origin: "http://localhost:3100" })).code).toBe(1000);
  await stranger.close();
  await page.getByTestId("terminate-button").click();
});

test("without JavaScript the panel says the terminal needs it and shows the ssh command", async ({ browser }) => {
  test.setTimeout(150_000);
  const user = await player("tnjs");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await loginViaForm(page, user);
  await page.goto(`/challenges/${DISK}`);
  await page.getByTestId("start-button").click();
  await expect(page.getByTestId("deployment-status")).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
  const panel = page.getByTestId("terminal-needs-js");
  await expect(panel).toContainText("needs JavaScript");
  await expect(panel.locator("code")).toHaveText(/^ssh -p \d+ \S+@\S+$/);
  await page.getByTestId("terminate-button").click();
  await context.close();
});

async function deploymentIdOf(user: { username: string; password: string }): Promise<string> {
  const { status, data } = await api("GET", `/challenges/${DISK}/active-session`, undefined, await apiLogin(user));
  expect(status).toBe(200);
  return data.deployment_id;
}
