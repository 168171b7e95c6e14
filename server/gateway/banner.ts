// Sending an SSH_MSG_USERAUTH_BANNER in the middle of authentication, so a refused person reads
// why (OpenSSH prints banners on stderr unless run with -q / LogLevel below INFO). ssh2 only sends
// its configured banner once, before authentication starts, when nothing is known yet; this
// writes the same packet through ssh2's own packet writer later. It leans on ssh2 1.x internals
// (Protocol._packetRW, utils.sendPacket), so it fails soft: if they change, no banner, same refusal.
import { createRequire } from "node:module";
import type { Connection } from "ssh2";

const require = createRequire(import.meta.url);
const USERAUTH_BANNER = 53; // RFC 4252 section 5.4

let sendPacket: ((proto: unknown, packet: Buffer) => boolean) | null | undefined;

function packetSender() {
  if (sendPacket === undefined) {
    try {
      sendPacket = (require("ssh2/lib/protocol/utils.js") as { sendPacket?: typeof sendPacket }).sendPacket ?? null;
    } catch {
      sendPacket = null;
    }
  }
  return sendPacket;
}

interface ProtocolInternals {
  _packetRW?: { write?: { allocStart: number; alloc(n: number): Buffer; finalize(p: Buffer): Buffer } };
}

/** Sends `text` as a user-authentication banner. Returns false when it could not. */
export function sendAuthBanner(client: Connection, text: string): boolean {
  const send = packetSender();
  const proto = (client as unknown as { _protocol?: ProtocolInternals })._protocol;
  const writer = proto?._packetRW?.write;
  if (!send || !writer) return false;
  try {
    const message = text.endsWith("\r\n") ? text : `${text.replace(/\n/g, "\r\n")}\r\n`;
    const len = Buffer.byteLength(message);
    let p = writer.allocStart;
    const packet = writer.alloc(1 + 4 + len + 4);
    packet[p] = USERAUTH_BANNER;
    packet.writeUInt32BE(len, ++p);
    packet.write(message, (p += 4), len, "utf8");
    packet.writeUInt32BE(0, p + len); // empty language tag
    send(proto, writer.finalize(packet));
    return true;
  } catch {
    return false;
  }
}
