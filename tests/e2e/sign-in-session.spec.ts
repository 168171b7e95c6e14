// The sign-in session as a browser holds it (decision 002): the session id changes whenever
// who is signed in changes, so an id known before sign-in (planted by someone else) never
// becomes a signed-in one, and one known before sign-out is worthless after; the database
// holds neither the id nor any token in clear.
import { join } from "node:path";
import Database from "better-sqlite3";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { createUser, DATA_DIR, expectSignedInAs, loginViaForm, logout } from "./support.ts";

const COOKIE = "__faultline"; // PUBLIC_URL is http here; over https it is __Host-faultline

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === COOKIE);
}

/** The session id inside the signed cookie value (base64 of its JSON, then the signature). */
function idOf(value: string): string {
  const [payload] = decodeURIComponent(value).split(".");
  return JSON.parse(Buffer.from(payload!, "base64").toString("utf8")) as string;
}

/** Whether a browser that holds only this cookie is signed in. */
async function signedInWith(page: Page, cookie: { name: string; value: string; domain: string; path: string }) {
  const context = await page.context().browser()!.newContext();
  try {
    await context.addCookies([{ name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path }]);
    const other = await context.newPage();
    await other.goto("/profile");
    return !new URL(other.url()).pathname.startsWith("/login");
  } finally {
    await context.close();
  }
}

function webSessionRows(): string {
  const db = new Database(join(DATA_DIR, "faultline.db"), { readonly: true, fileMustExist: true });
  try {
    return JSON.stringify(db.prepare("SELECT * FROM web_sessions").all());
  } finally {
    db.close();
  }
}

test("the session id changes at sign-in and at sign-out; an id from before signs nobody in; the database holds neither ids nor tokens", async ({ page }) => {
  const user = await createUser({ prefix: "sess" });
  // A session before sign-in: the theme switch keeps an anonymous visitor's choice in it.
  await page.goto("/faq");
  const switched = await page.request.post("/theme", { form: { theme: "light" }, maxRedirects: 0 });
  expect(switched.status()).toBe(302);
  const before = await sessionCookie(page.context());
  expect(before, "a pre-login session cookie").toBeTruthy();
  expect(before!.httpOnly).toBe(true);
  expect(before!.sameSite).toBe("Lax");

  await loginViaForm(page, user);
  await expect(page).toHaveURL("/profile");
  await expectSignedInAs(page, user.username);
  const after = (await sessionCookie(page.context()))!;
  expect(idOf(after.value)).not.toBe(idOf(before!.value));
  // Whoever held (or planted) the id from before sign-in is not signed in with it.
  expect(await signedInWith(page, before!)).toBe(false);
  expect(await signedInWith(page, after)).toBe(true);

  // The database keeps a hash of the id and the data encrypted: no id, no JWT, no token.
  const rows = webSessionRows();
  expect(rows).toContain("id_hash");
  expect(rows).not.toContain(idOf(after.value));
  expect(rows).not.toContain(idOf(before!.value));
  // A JWT (header.payload.): "eyJ" alone also turns up by chance in the sealed data's base64.
  expect(rows).not.toMatch(/eyJ[\w-]+\.eyJ/);
  expect(rows).not.toMatch(/access_token|refresh_token/);

  // Sign-out ends that id: a copy of the signed-in cookie is worthless afterwards.
  await logout(page);
  expect(await signedInWith(page, after)).toBe(false);
  const out = await sessionCookie(page.context());
  if (out) expect(idOf(out.value)).not.toBe(idOf(after.value));
});
