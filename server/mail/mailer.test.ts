// The outbox mailer (no SMTP_URL) and what it writes to the log.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "#server/logger.ts";
import { createMailer, maskAddress } from "./mailer.ts";

const TOKEN = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0ZZ";
const mail = {
  to: "someone.private@example.org",
  subject: "Verify your faultline e-mail address",
  text: `Confirm your address:\nhttps://faultline.example/verify-email?token=${TOKEN}\n`,
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function mailerFor(env: "production" | "development") {
  const dataDir = mkdtempSync(join(tmpdir(), "faultline-mailer-"));
  dirs.push(dataDir);
  const lines: string[] = [];
  const record = (msg: string) => void lines.push(msg);
  const log: Logger = { debug: record, info: record, warn: record, error: record };
  return { mailer: createMailer({ from: "faultline <no-reply@faultline.local>", dataDir, log, env }), lines, dataDir };
}

describe("outbox mailer", () => {
  it("in production keeps the link, its token and the full address out of the log, and the mail in the outbox", async () => {
    const { mailer, lines, dataDir } = mailerFor("production");
    await mailer.send(mail);
    const logged = lines.join("\n");
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain("verify-email");
    expect(logged).not.toContain(mail.to);
    expect(logged).toMatch(/outbox/);
    expect(logged).toContain(maskAddress(mail.to));
    const files = readdirSync(join(dataDir, "outbox"));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(dataDir, "outbox", files[0]!), "utf8");
    expect(eml).toContain(mail.to);
    expect(eml.replace(/=\r?\n/g, "")).toContain(TOKEN);
  });

  it("in development still prints the mail, so a developer can follow the link", async () => {
    const { mailer, lines } = mailerFor("development");
    await mailer.send(mail);
    expect(lines.join("\n")).toContain(TOKEN);
  });

  it("masks an address to its first letter and domain", () => {
    expect(maskAddress("someone.private@example.org")).toBe("s***@example.org");
    expect(maskAddress("not-an-address")).toBe("***");
  });
});
