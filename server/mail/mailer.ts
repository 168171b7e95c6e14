// Sends mail through SMTP when SMTP_URL is set; otherwise writes each message to
// DATA_DIR/outbox as an .eml file and logs it, so a developer can follow links without a server.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../logger.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log: Logger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
        opts.log.info(`mail sent to ${mail.to}: ${mail.subject}`);
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
      opts.log.info(`mail to ${mail.to} written to ${file} (no SMTP_URL)\n${mail.text}`);
    },
  };
}
