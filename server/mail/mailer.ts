// Sends mail through SMTP when SMTP_URL is set; otherwise writes each message to
// DATA_DIR/outbox as an .eml file. In development the log shows the message too, so a developer
// can follow links without a server; in production the log says only that a mail went to the
// outbox: links in mail are bearer secrets (e-mail verification), and addresses are personal.
//
// The outbox is bounded like the recordings (docs/decisions/016-per-user-bounds.md): at most
// `maxFiles` files and `maxBytes` bytes, the oldest removed first, and nothing is written while
// free space is below the floor (the mail is dropped and the log says so: the account, the
// request and everything already saved are unaffected).
import { mkdirSync } from "node:fs";
import { readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { DiskSpace } from "#server/disk-space.ts";
import type { Logger } from "#server/logger.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on notification mails). */
  headers?: Record<string, string>;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** The outbox's files and bytes (zero with SMTP). */
  outboxUsage(): Promise<{ files: number; bytes: number }>;
}

/** "someone@example.org" → "s***@example.org": enough to tell mails apart in a log. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${address[0]}***${address.slice(at)}`;
}

export const OUTBOX_DEFAULTS = { maxFiles: 1000, maxBytes: 50 * 1024 * 1024 };

export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Logger;
  /** NODE_ENV: "production" keeps links and full addresses out of the log. */
  env?: "development" | "production" | "test";
  outbox?: { maxFiles: number; maxBytes: number };
  /** The free-space floor where the outbox lives (server/disk-space.ts). */
  disk?: Pick<DiskSpace, "check">;
}): Mailer {
  const production = opts.env === "production";
  const who = (to: string) => (production ? maskAddress(to) : to);
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
        opts.log.info(`mail sent to ${who(mail.to)}: ${mail.subject}`);
      },
      outboxUsage: async () => ({ files: 0, bytes: 0 }),
    };
  }
  const outbox = join(opts.dataDir, "outbox");
  const bounds = opts.outbox ?? OUTBOX_DEFAULTS;
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  /** The outbox's files, oldest first (names start with the time written), read once from the
   *  folder and kept since. */
  let files: Promise<{ name: string; size: number }[]> | null = null;
  let bytes = 0;
  let seq = 0;

  const index = () =>
    (files ??= (async () => {
      const names = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
      const listed: { name: string; size: number }[] = [];
      for (const name of names)
        listed.push({
          name,
          size: await stat(join(outbox, name)).then(
            (s) => s.size,
            () => 0,
          ),
        });
      bytes = listed.reduce((n, f) => n + f.size, 0);
      return listed;
    })());

  /** Removes the oldest files until the outbox is within its bounds. */
  async function trim() {
    const list = await index();
    while (list.length && (list.length > bounds.maxFiles || bytes > bounds.maxBytes)) {
      const old = list.shift()!;
      bytes -= old.size;
      await unlink(join(outbox, old.name)).catch(() => {});
    }
  }

  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      if (opts.disk && !(await opts.disk.check())) {
        opts.log.warn(`mail to ${maskAddress(mail.to)} not written to the outbox: free disk space is below the floor (${mail.subject})`);
        return;
      }
      const info = await render.sendMail({ from: opts.from, ...mail });
      const message = info.message as Buffer;
      // The time first, so names sort in the order written; a counter for mails in one millisecond.
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${String(++seq % 1e6).padStart(6, "0")}-${info.messageId.replace(/[<>@/\\]/g, "")}.eml`;
      const file = join(outbox, name);
      const list = await index();
      await writeFile(file, message);
      list.push({ name, size: message.length });
      bytes += message.length;
      await trim();
      if (production) opts.log.info(`mail to ${who(mail.to)} written to the outbox ${outbox} (no SMTP_URL): ${mail.subject}`);
      else opts.log.info(`mail to ${mail.to} written to ${file} (no SMTP_URL)\n${mail.text}`);
    },
    outboxUsage: async () => ({ files: (await index()).length, bytes }),
  };
}
