// Mails sent after the answer (decision 017): a request that mails never waits for SMTP, so how
// long it takes says nothing about what was mailed (whether an address has an account, how many
// mails went out), and a slow or stuck mail server never holds a sign-in or a settings change.
// A mail that cannot be sent is logged; the act it tells of stands.
import type { Logger } from "#server/logger.ts";
import type { Mail, Mailer } from "#server/mail/mailer.ts";

export interface MailLater {
  /** Hands the mail to the mailer without waiting for it. */
  send(mail: Mail): void;
  /** Resolves when every mail handed over so far has been sent or has failed. */
  settled(): Promise<void>;
}

export function createMailLater(mailer: Mailer, log?: Pick<Logger, "error">): MailLater {
  const sending = new Set<Promise<void>>();
  return {
    send(mail) {
      const job: Promise<void> = mailer
        .send(mail)
        .catch((e) => log?.error(`mail "${mail.subject}" could not be sent`, e))
        .finally(() => sending.delete(job));
      sending.add(job);
    },
    async settled() {
      while (sending.size) await Promise.allSettled([...sending]);
    },
  };
}
