// The loopback services of the browser tests, started by Playwright's webServer (see
// playwright.config.ts): the SMTP capture, the OAuth2 provider, and a small control endpoint
// through which the tests (separate worker processes) read mail and pick the next OAuth identity.
//
//   GET  /health
//   GET  /messages?to=<address>[&wait=<ms>][&since=<epoch ms>]  → the latest message to <address>
//        (waits up to `wait` for one to arrive), 404 when none came
//   POST /oauth/next-profile/<github|google>  (JSON OAuthProfile) → the resolved profile
//   GET  /oauth/stats
import { createServer } from "node:http";
import { startOAuthProvider, type ProviderName } from "./oauth-provider.ts";
import { startSmtpCapture } from "./smtp.ts";

const env = process.env;
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);

const smtp = await startSmtpCapture(port("E2E_SMTP_PORT", 9401));
const oauth = await startOAuthProvider(port("E2E_OAUTH_PORT", 9402), {
  clients: {
    github: { id: env.E2E_GITHUB_CLIENT_ID ?? "e2e-github", secret: env.E2E_GITHUB_CLIENT_SECRET ?? "e2e-github-secret" },
    google: { id: env.E2E_GOOGLE_CLIENT_ID ?? "e2e-google", secret: env.E2E_GOOGLE_CLIENT_SECRET ?? "e2e-google-secret" },
  },
});

const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const control = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://control.invalid");
  try {
    if (url.pathname === "/health") return json(res, 200, { smtp: smtp.url, oauth: oauth.baseUrl });
    if (url.pathname === "/messages" && req.method === "GET") {
      const to = url.searchParams.get("to");
      if (!to) return json(res, 400, { error: "to= is required" });
      const wait = Math.min(Number(url.searchParams.get("wait") ?? 0), 30_000);
      const since = Number(url.searchParams.get("since") ?? 0);
      try {
        const m = await smtp.waitForMessage(to, Math.max(wait, 1), { since });
        return json(res, 200, m);
      } catch (e) {
        return json(res, 404, { error: String(e instanceof Error ? e.message : e) });
      }
    }
    const next = /^\/oauth\/next-profile\/(github|google)$/.exec(url.pathname);
    if (next && req.method === "POST") {
      let body = "";
      for await (const c of req) body += c;
      return json(res, 200, oauth.setNextProfile(next[1] as ProviderName, body ? JSON.parse(body) : {}));
    }
    if (url.pathname === "/oauth/stats") return json(res, 200, oauth.stats);
    json(res, 404, { error: "not found" });
  } catch (e) {
    json(res, 500, { error: String(e) });
  }
});
await new Promise<void>((resolve) => control.listen(port("E2E_CONTROL_PORT", 9400), "127.0.0.1", resolve));
console.log(`e2e services: control http://127.0.0.1:${port("E2E_CONTROL_PORT", 9400)}, ${smtp.url}, OAuth ${oauth.baseUrl}`);

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    control.close();
    void Promise.all([smtp.close(), oauth.close()]).finally(() => process.exit(0));
  });
}
