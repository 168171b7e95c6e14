// Sends mail through SMTP when SMTP_URL is set; otherwise writes each message to
// DATA_DIR/outbox as an .eml file. In development the log shows the message too, so a developer
// can follow links without a server; in production the log says only that a mail went to the
// outbox: links in mail are bearer secrets (e-mail verification), and addresses are personal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../logger.ts";

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
}

/** "someone@example.org" → "s***@example.org": enough to tell mails apart in a log. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${address[0]}***${address.slice(at)}`;
}

export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Logger;
  /** NODE_ENV: "production" keeps links and full addresses out of the log. */
  env?: "development" | "production" | "test";
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
    };
  }
  const outbox = join(opts.dataDir, "outbox");
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true });
      const info = await render.sendMail({ from: opts.from, ...mail });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${info.messageId.replace(/[<>@]/g, "")}.eml`);
      writeFileSync(file, info.message as Buffer);
      if (production) opts.log.info(`mail to ${who(mail.to)} written to the outbox ${outbox} (no SMTP_URL): ${mail.subject}`);
      else opts.log.info(`mail to ${mail.to} written to ${file} (no SMTP_URL)\n${mail.text}`);
    },
  };
}
