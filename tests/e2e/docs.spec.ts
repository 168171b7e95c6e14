// /docs is a real page: how to connect by SSH with this installation's host and port,
// how grading works, the challenge format (linked from /submit_challenge), all without JavaScript.
// /discord is honest: the configured invite (DISCORD_URL) as a link, or that there is none yet;
// the configured case runs a second server (no engine: RUNTIME=none) with DISCORD_URL set.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { api, gatewayHostKeyFingerprint, screenshots } from "./support.ts";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/docs explains SSH with the configured host and port, grading and the challenge format", async ({ page }) => {
    const config = await api("GET", "/challenges/config/ssh");
    expect(config.status).toBe(200);
    const { ssh_host: host, ssh_port: port } = config.data;

    await page.goto("/docs");
    await expect(page).toHaveTitle("docs | faultline");
    for (const [id, title] of [
      ["ssh", "Connect by SSH"],
      ["grading", "How grading works"],
      ["challenge-format", "The challenge format"],
    ]) {
      await expect(page.locator(`section#${id}`).getByRole("heading", { name: title })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: title })).toHaveAttribute("href", `#${id}`);
    }
    const ssh = page.getByTestId("docs-ssh");
    await expect(ssh).toContainText("ssh-keygen -t ed25519");
    await expect(ssh).toContainText("ssh-keygen -Y sign -n faultline");
    await expect(ssh.getByRole("link", { name: "settings" })).toHaveAttribute("href", "/profile/settings");
    await expect(page.getByTestId("ssh-host-key")).toHaveText(gatewayHostKeyFingerprint());
    await expect(page.getByTestId("docs-ssh-command")).toHaveText(`ssh -p ${port} <challenge>@${host}`);
    const sshConfig = await page.getByTestId("docs-ssh-config").innerText();
    expect(sshConfig).toContain("Host faultline");
    expect(sshConfig).toMatch(new RegExp(`^\\s*HostName ${host.replace(/\./g, "\\.")}$`, "m"));
    expect(sshConfig).toMatch(new RegExp(`^\\s*Port ${port}$`, "m"));
    expect(sshConfig).toMatch(/^\s*IdentitiesOnly yes$/m);

    const grading = page.getByTestId("docs-grading");
    await expect(grading).toContainText("never runs inside your deployment");
    await expect(grading).toContainText("who");
    const format = page.getByTestId("docs-challenge-format");
    for (const word of [
      "challenge.yaml",
      "setup.sh",
      "check.sh",
      "solution.sh",
      "fakes/",
      "variants",
      "npm run challenge -- new my-incident",
      "npm run challenge -- prove my-incident",
    ]) {
      await expect(format).toContainText(word);
    }
    await screenshots(page, "docs");
  });

  test("/submit_challenge links to the challenge format", async ({ page }) => {
    await page.goto("/submit_challenge");
    const link = page.getByRole("link", { name: "the challenge format" });
    await expect(link).toHaveAttribute("href", "/docs#challenge-format");
    await link.click();
    await expect(page).toHaveURL(/\/docs#challenge-format$/);
    await expect(page.locator("section#challenge-format")).toBeVisible();
  });

  test("/discord says plainly that there is no server when none is configured", async ({ page }) => {
    await page.goto("/discord");
    await expect(page.getByTestId("discord-none")).toContainText("There is no faultline Discord server yet.");
    await expect(page.getByTestId("discord-invite")).toHaveCount(0);
  });
});

/** server.ts as its own process on a free port, without an engine (nothing touches dockerd). */
async function startSecondServer(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-e2e-docs-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      RUNTIME: "none",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (c: Buffer) => {
      log += c;
      const m = /faultline listening on http:\/\/[^:]+:(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}):\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test("/discord links the configured invite; /docs without a gateway still explains, with placeholders", async ({ page }) => {
  const invite = "https://discord.gg/faultline-e2e";
  const server = await startSecondServer({ DISCORD_URL: invite });
  try {
    await page.goto(`${server.url}/discord`);
    const link = page.getByTestId("discord-invite").getByRole("link", { name: invite });
    await expect(link).toHaveAttribute("href", invite);
    await expect(page.getByTestId("discord-none")).toHaveCount(0);

    await page.goto(`${server.url}/docs`);
    await expect(page.getByTestId("docs-no-gateway")).toBeVisible();
    await expect(page.getByTestId("docs-host-key")).toHaveCount(0);
    await expect(page.getByTestId("docs-ssh-config")).toContainText("HostName <host>");
    await expect(page.getByTestId("docs-ssh-config")).toContainText("Port <port>");
  } finally {
    await server.stop();
  }
});
