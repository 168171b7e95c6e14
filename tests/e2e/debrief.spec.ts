// Costed hints, the debrief, compare and replay, against the real server, dockerd and
// SSH gateway: hint texts are absent from the page (HTML and loader data) until revealed; a hint
// is revealed with JavaScript and the next one without; the player fixes the disk-full challenge
// in an interactive ssh session (a PTY, so the gateway records what was typed); the success
// screen shows the points less what the hints cost, the debrief, the typed commands beside the
// reference steps, and the replay plays (asciinema-player loaded only then, under a CSP without
// 'unsafe-eval').
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { parse } from "yaml";
import { apiLogin, createUser, loginViaForm, putSshKeyByApi, screenshots, sshKeyPair } from "./support.ts";

const DISK = "disk-full-deleted-log";
const yaml = parse(readFileSync(`challenges/${DISK}/challenge.yaml`, "utf8"));
const HINTS: string[] = yaml.hints;

/** What the player types, key by key, into an interactive shell (a typo fixed with backspace). */
const TYPED = [
  "df -h /srv",
  "du -sh /srx\x7fv",
  'for fd in /proc/[0-9]*/fd/*; do case "$(readlink $fd)" in /srv/*"(deleted)") : > $fd ;; esac; done',
  "service ledgerd restart",
  "sleep 3",
  "df -h /srv",
  "exit",
];

/** Types into a login shell through the command the SSH box shows, with a terminal (-tt), as a
 *  person at a keyboard would: the gateway records the keys. */
function typeOverSsh(command: string, privateKey: string, lines: string[]): string {
  const m = /^ssh -p (\d+) (\S+)@(\S+)$/.exec(command);
  expect(m, command).not.toBeNull();
  const [, port, user, host] = m!;
  const opts = ["IdentitiesOnly=yes", "BatchMode=yes", "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "LogLevel=ERROR"];
  return execFileSync("ssh", ["-tt", "-p", port!, "-i", privateKey, ...opts.flatMap((o) => ["-o", o]), `${user}@${host}`], {
    input: lines.map((l) => `${l}\r`).join(""),
    encoding: "utf8",
    timeout: 60_000,
  });
}

const noHintText = (text: string, hints: string[]) => {
  for (const h of hints) expect(text).not.toContain(h.slice(0, 40));
};

/** The page's full HTML as the server sends it (loader data included), with the page's cookies. */
async function html(page: Page, path: string): Promise<string> {
  const res = await page.request.get(path);
  expect(res.status()).toBe(200);
  return res.text();
}

test("hints cost points on solve, the debrief and compare show, the replay plays", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const user = await createUser({ prefix: "dbf" });
  const keys = sshKeyPair(`${user.username}@e2e`);
  const put = await putSshKeyByApi(await apiLogin(user), keys.privateKey);
  expect(put.status).toBe(200);
  const cspViolations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.addInitScript(() => {
    (window as any).__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => (window as any).__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const playerChunks: string[] = [];
  page.on("request", (r) => {
    if (/asciinema/i.test(r.url())) playerChunks.push(r.url());
  });

  try {
    await loginViaForm(page, user);
    await page.goto(`/challenges/${DISK}`);
    noHintText(await page.content(), HINTS);
    noHintText(await html(page, `/challenges/${DISK}`), HINTS);

    await page.getByTestId("start-button").click();
    await expect(page.getByTestId("deployment-status")).toHaveAttribute("data-status", "ready", { timeout: 90_000 });
    const reveal = page.getByTestId("reveal-hint");
    await expect(reveal).toHaveText("Reveal hint 1 (costs 20 points)");
    noHintText(await page.content(), HINTS);
    noHintText(await html(page, `/challenges/${DISK}`), HINTS);

    // Hint 1 with JavaScript (a fetcher; the page does not reload).
    await reveal.click();
    await expect(page.getByTestId("hint-1")).toContainText(HINTS[0]!);
    await expect(reveal).toHaveText("Reveal hint 2 (costs 20 points)");
    await expect(page.getByTestId("hints-pending-cost")).toHaveText("20");
    const afterOne = await html(page, `/challenges/${DISK}`);
    expect(afterOne).toContain(HINTS[0]!.slice(0, 40));
    noHintText(afterOne, HINTS.slice(1));

    // Hint 2 without JavaScript: a plain form post, and the page comes back with it.
    const nojs = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
    const plain = await nojs.newPage();
    await plain.goto(`/challenges/${DISK}`);
    await expect(plain.getByTestId("reveal-hint")).toHaveText("Reveal hint 2 (costs 20 points)");
    await plain.getByTestId("reveal-hint").click();
    await expect(plain.getByTestId("hint-2")).toBeVisible();
    await expect(plain.getByTestId("reveal-hint")).toHaveText("Reveal hint 3 (costs 20 points)");
    await expect(plain.getByTestId("hints-pending-cost")).toHaveText("40");
    await nojs.close();

    // The fix, typed in an interactive session (recorded by the gateway).
    const command = (await page.getByTestId("ssh-command").textContent())!.trim();
    typeOverSsh(command, keys.privateKey, TYPED);

    await page.getByLabel("solution").fill("ledgerd still held its deleted log open; I truncated it through /proc and restarted ledgerd.");
    await page.getByTestId("submit-button").click();
    const success = page.getByTestId("success-screen");
    await expect(success).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("points-earned")).toHaveText("+160");
    await expect(page.getByTestId("hints-cost")).toHaveText("160 points (40 for hints)");

    // The debrief: root cause, the reference steps beside the typed commands.
    await expect(page.getByTestId("debrief-text")).toContainText("Deleting a file only removes its name");
    await expect(page.getByTestId("reference-steps").locator("li")).toHaveCount(yaml.solution_steps.length);
    const typed = page.getByTestId("your-commands").locator("li");
    await expect(typed.first()).toHaveText("df -h /srv");
    await expect(typed.nth(1)).toHaveText("du -sh /srv");
    await expect(page.getByTestId("your-commands")).toContainText("service ledgerd restart");
    await expect(typed.last()).toHaveText("exit");

    // The replay: the player's code only now, and it plays (its clock moves).
    expect(playerChunks).toEqual([]);
    await page.getByTestId("replay-button").first().click();
    const player = page.getByTestId("replay-player").first();
    await expect(player.locator(".ap-wrapper")).toBeVisible({ timeout: 15_000 });
    expect(playerChunks.length).toBeGreaterThan(0);
    const elapsed = player.locator(".ap-time-elapsed");
    await expect(elapsed).toBeVisible();
    // (Without 'wasm-unsafe-eval' in the CSP the WebAssembly emulator never starts: it stays at --:--.)
    await expect(elapsed).toHaveText(/^00:0[1-9]$/, { timeout: 15_000 });
    await expect(player.locator(".ap-term")).toContainText("ledger01");
    await screenshots(page, "challenge-debrief");

    // No CSP violation on the way, and the policy still refuses JavaScript eval.
    expect(cspViolations).toEqual([]);
    expect(await page.evaluate(() => (window as any).__csp)).toEqual([]);
    const res = await page.request.get(`/challenges/${DISK}`);
    const csp = res.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'wasm-unsafe-eval'/);
    expect(csp).not.toMatch(/'unsafe-eval'/);

    // Reloaded later, the page keeps the debrief (solved), and the hints are free now.
    await page.goto(`/challenges/${DISK}`);
    await expect(page.getByTestId("solved-debrief")).toContainText("Deleting a file only removes its name");

    // Publish the session from the profile's Solutions tab (private by default); then a visitor
    // can replay it on the public profile, and only then.
    const visitor = await browser.newContext();
    const anon = await visitor.newPage();
    await anon.goto(`/profile/${user.username}?tab=solutions`);
    await expect(anon.getByTestId("solution-row")).toHaveCount(1);
    await expect(anon.getByTestId("published-session")).toHaveCount(0);
    await page.goto("/profile?tab=solutions");
    const own = page.getByTestId("own-session");
    await expect(own).toHaveAttribute("data-published", "false");
    await own.getByTestId("publish-toggle").click();
    await expect(own).toHaveAttribute("data-published", "true");
    // A visitor's browser keeps a profile up to 5 minutes (app/.server/cache.ts): a new visitor.
    const later = await (await browser.newContext()).newPage();
    await later.goto(`/profile/${user.username}?tab=solutions`);
    await later.getByTestId("published-session").getByTestId("replay-button").click();
    await expect(later.getByTestId("replay-player").locator(".ap-time-elapsed")).toHaveText(/^00:0[1-9]$/, { timeout: 15_000 });
    await later.context().close();
    await own.getByTestId("publish-toggle").click();
    await expect(own).toHaveAttribute("data-published", "false");
    await visitor.close();
  } finally {
    rmSync(keys.dir, { recursive: true, force: true });
  }
});

test("the debrief is not on the page before solving", async ({ page }) => {
  const user = await createUser({ prefix: "dbn" });
  await loginViaForm(page, user);
  await page.goto(`/challenges/${DISK}`);
  await expect(page.getByTestId("challenge-page")).toBeVisible();
  const body = await html(page, `/challenges/${DISK}`);
  expect(body).not.toContain("Deleting a file only removes its name");
  expect(body).not.toContain(yaml.solution_steps[1].slice(0, 40));
  await expect(page.getByTestId("debrief")).toHaveCount(0);
  // A recording of someone else's is a 404 for this user.
  expect((await page.request.get("/recordings/00000000-0000-4000-8000-000000000000/cast")).status()).toBe(404);
});
