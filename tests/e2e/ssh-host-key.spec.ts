// The SSH gateway's host key is shown where people look before their first connection:
// /docs shows the fingerprint `ssh-keygen -lf` prints for the gateway's key file, and a
// known_hosts line that holds exactly the key the gateway presents (ssh-keyscan).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { api, gatewayHostKeyFingerprint, screenshots } from "./support.ts";

test("/docs shows the gateway's host key fingerprint and a known_hosts line that matches what it presents", async ({ page }) => {
  const fingerprint = gatewayHostKeyFingerprint();
  expect(fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  await page.goto("/docs");
  await expect(page.getByTestId("ssh-host-key")).toHaveText(fingerprint);
  const line = (await page.getByTestId("ssh-known-hosts").innerText()).trim();
  await screenshots(page, "docs-host-key");

  // The same through the API, for programs.
  const config = await api("GET", "/challenges/config/ssh");
  expect(config.status).toBe(200);
  expect(config.data).toMatchObject({ host_key_fingerprint: fingerprint, known_hosts: line });

  // The line is what OpenSSH would store after trusting the gateway: same host, port and key.
  const { ssh_host: host, ssh_port: port } = config.data;
  const scanned = execFileSync("ssh-keyscan", ["-t", "ed25519", "-p", String(port), host], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  expect(scanned).toBe(line);
  const dir = mkdtempSync(join(tmpdir(), "faultline-e2e-kh-"));
  try {
    writeFileSync(join(dir, "known_hosts"), `${line}\n`);
    expect(execFileSync("ssh-keygen", ["-l", "-f", join(dir, "known_hosts")], { encoding: "utf8" })).toContain(fingerprint);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
