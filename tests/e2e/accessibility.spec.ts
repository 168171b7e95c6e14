// Readable by everyone: axe-core checks every page against WCAG 2 A and AA, signed out
// and signed in, in the dark and the light theme, at desktop and phone width, and finds no serious
// or critical violation. One test per combination walks the pages (signed in: those that need a
// player, and the public ones a player changes), so the spec stays quick.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test, type Page } from "@playwright/test";
import { createUser, DATA_DIR, loginViaForm, type TestUser, WIDTHS } from "./support.ts";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const CHALLENGE = "nginx-broken-config";

const PUBLIC_PAGES = [
  "/",
  "/challenges",
  `/challenges/${CHALLENGE}`,
  "/leaderboard",
  "/login",
  "/register",
  "/faq",
  "/pricing",
  "/docs",
  "/status",
  "/submit_challenge",
  "/privacy",
  "/terms",
  "/security",
  "/cookies",
  "/discord",
  "/unauthorized",
  "/no-such-page",
  // Account basics: the pages a mailed link opens show their invalid-link state here.
  "/forgot-password",
  "/reset-password?token=not-a-token",
  "/confirm-email?token=not-a-token",
  "/unsubscribe?token=not-a-token",
];
// The public pages whose content changes for a signed-in player (their start button, their own
// row, their plan); the others differ only by the nav, which these already show signed in.
const PERSONAL_PUBLIC_PAGES = ["/", "/challenges", `/challenges/${CHALLENGE}`, "/leaderboard", "/pricing", "/docs"];
// Pages that need a signed-in user (the admin console needs an admin: the signed-in user is one).
const SIGNED_IN_PAGES = [
  "/profile",
  "/profile/settings",
  "/profile/settings?tab=security",
  "/billing",
  "/admin",
  "/admin?tab=challenges",
  "/admin?tab=system",
  "/admin?tab=logs",
];

type Finding = { page: string; rule: string; impact: string; nodes: string[] };

/** The serious and critical WCAG 2 A/AA violations axe finds on the page now. */
async function seriousViolations(page: Page, path: string): Promise<Finding[]> {
  await page.goto(path);
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<any> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
    return result.violations.map((v: any) => ({
      rule: v.id as string,
      impact: v.impact as string,
      nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`),
    }));
  });
  return violations.filter((v: Finding) => v.impact === "serious" || v.impact === "critical").map((v: Finding) => ({ ...v, page: path }));
}

// The site's Content-Security-Policy (rightly) refuses the injected axe script; the test browser
// sets it aside so axe can run on the real pages.
test.use({ bypassCSP: true });
// Its eight walks take ~9 minutes of one worker: spread over the workers, they do not end the run
// alone. Each worker makes its own admin (beforeAll runs per worker), so the themes a walk saves
// on its account never meet another worker's.
test.describe.configure({ mode: "parallel" });

let admin: TestUser;
test.beforeAll(async () => {
  admin = await createUser({ prefix: "a11y" });
  execFileSync("npx", ["tsx", "server/cli.ts", "grant", admin.username], {
    env: { ...process.env, DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
});

for (const signedIn of [false, true]) {
  for (const theme of ["dark", "light"] as const) {
    for (const [label, width] of Object.entries(WIDTHS)) {
      test(`no serious violations: ${signedIn ? "signed in" : "signed out"}, ${theme}, ${label}`, async ({ page }) => {
        test.setTimeout(180_000);
        await page.setViewportSize({ width, height: label === "phone" ? 844 : 800 });
        const pages = signedIn ? [...PERSONAL_PUBLIC_PAGES, ...SIGNED_IN_PAGES, `/profile/${admin.username}`] : PUBLIC_PAGES;
        if (signedIn) await loginViaForm(page, admin);
        // The theme is chosen the way the nav's switch does it (saved on the account when signed in).
        const chosen = await page.request.post("/theme", { form: { theme }, maxRedirects: 0 });
        expect(chosen.status()).toBe(302);
        await page.goto("/");
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? "dark" : "");

        const findings: Finding[] = [];
        for (const path of pages) findings.push(...(await seriousViolations(page, path)));
        expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
      });
    }
  }
}
