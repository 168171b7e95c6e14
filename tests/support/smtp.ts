// A real SMTP server on loopback (smtp-server, no auth, no TLS) that keeps every message it
// receives, so tests can read the mail faultline sends, follow links in it, and so on.
// The MIME parsing is our own (mailparser is not available): headers with folding and RFC 2047
// encoded words, multipart bodies (first text/plain part wins), quoted-printable and base64.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CapturedMessage {
  /** The first envelope recipient (RCPT TO), lower-cased. */
  to: string;
  /** Every envelope recipient, lower-cased. */
  recipients: string[];
  /** The envelope sender (MAIL FROM). */
  from: string;
  subject: string;
  /** The decoded text/plain body (or the decoded body of a single-part message). */
  text: string;
  /** Header name (lower-case) → value, unfolded. */
  headers: Record<string, string>;
  /** The message exactly as it came over the wire. */
  raw: string;
  receivedAt: number;
}

export interface SmtpCapture {
  url: string;
  port: number;
  messages: CapturedMessage[];
  /**
   * The latest message to `to` received so far (at or after `since`, when given), or else the
   * next one to arrive; rejects after timeoutMs.
   */
  waitForMessage(to: string, timeoutMs?: number, opts?: { since?: number }): Promise<CapturedMessage>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- MIME decoding

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitHeaders(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  // Unfold: a line starting with white space continues the previous header.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { headers, body };
}

/** A header parameter such as boundary or charset. */
function param(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(header);
  return m ? (m[1] ?? m[2]) : undefined;
}

function charsetOf(contentType: string | undefined): BufferEncoding {
  const c = (param(contentType, "charset") ?? "utf-8").toLowerCase();
  if (c === "us-ascii" || c === "ascii") return "ascii";
  if (c === "iso-8859-1" || c === "latin1") return "latin1";
  return "utf8";
}

export function decodeQuotedPrintable(input: string): Buffer {
  // Soft line breaks (= at the end of a line) join lines; =XX is one byte.
  const joined = input.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i]!;
    if (ch === "=" && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(ch, "utf8")) bytes.push(b);
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const charset = charsetOf(part.headers["content-type"]);
  let buf: Buffer;
  if (encoding === "quoted-printable") buf = decodeQuotedPrintable(part.body);
  else if (encoding === "base64") buf = Buffer.from(part.body.replace(/\s+/g, ""), "base64");
  else buf = Buffer.from(part.body, "utf8");
  return buf.toString(charset);
}

/** RFC 2047 encoded words in headers: =?charset?B|Q?...?= */
export function decodeHeader(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1") // white space between encoded words is dropped
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, cs: string, enc: string, text: string) => {
      const charset = charsetOf(`x; charset=${cs}`);
      if (enc.toUpperCase() === "B") return Buffer.from(text, "base64").toString(charset);
      return decodeQuotedPrintable(text.replace(/_/g, " ")).toString(charset);
    });
}

/** The text of a message: the first text/plain part, else the first text/* part, decoded. */
function textOf(part: Part): string | undefined {
  const type = (part.headers["content-type"] ?? "text/plain").toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = param(part.headers["content-type"], "boundary");
    if (!boundary) return undefined;
    const pieces = part.body.split(new RegExp(`^--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*$`, "m"));
    const parts = pieces.slice(1, -1).map((p) => splitHeaders(p.replace(/^\n/, "")));
    const plain = parts.find((p) => (p.headers["content-type"] ?? "text/plain").toLowerCase().startsWith("text/plain"));
    if (plain) return textOf(plain);
    for (const p of parts) {
      const t = textOf(p);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (!type.startsWith("text/")) return undefined;
  return decodeBody(part).replace(/\n$/, "");
}

export function parseMessage(raw: string) {
  const top = splitHeaders(raw);
  return {
    headers: top.headers,
    subject: decodeHeader(top.headers.subject ?? ""),
    text: textOf(top) ?? "",
  };
}

// ---------------------------------------------------------------- the server

export async function startSmtpCapture(port = 0, host = "127.0.0.1"): Promise<SmtpCapture> {
  const messages: CapturedMessage[] = [];
  const waiters = new Set<{ to: string; since: number; resolve: (m: CapturedMessage) => void }>();

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    hideSTARTTLS: true,
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = parseMessage(raw);
        const recipients = session.envelope.rcptTo.map((a) => a.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const message: CapturedMessage = {
          to: recipients[0] ?? "",
          recipients,
          from,
          subject: parsed.subject,
          text: parsed.text,
          headers: parsed.headers,
          raw,
          receivedAt: Date.now(),
        };
        messages.push(message);
        for (const w of [...waiters]) {
          if (recipients.includes(w.to) && message.receivedAt >= w.since) {
            waiters.delete(w);
            w.resolve(message);
          }
        }
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${host}:${actualPort}`,
    port: actualPort,
    messages,
    waitForMessage(to, timeoutMs = 10_000, opts = {}) {
      const address = to.toLowerCase();
      const since = opts.since ?? 0;
      const have = messages.filter((m) => m.recipients.includes(address) && m.receivedAt >= since).at(-1);
      if (have) return Promise.resolve(have);
      return new Promise((resolve, reject) => {
        const waiter = {
          to: address,
          since,
          resolve: (m: CapturedMessage) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (${messages.length} captured in all)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
