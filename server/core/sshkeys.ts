// Validates an OpenSSH public key: ed25519, ecdsa, or RSA of at least 2048 bits.
import { createHash, createPublicKey } from "node:crypto";
import ssh2 from "ssh2";
import { badRequest } from "./errors.ts";

const ALLOWED = new Set([
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "ssh-rsa",
]);

export interface ParsedSshKey {
  /** The normalised single line `type base64 [comment]`. */
  line: string;
  type: string;
  fingerprint: string;
}

export function parseSshPublicKey(text: string): ParsedSshKey {
  const trimmed = text.trim();
  if (/PRIVATE KEY/.test(trimmed)) {
    throw badRequest("That is a private key. Paste your public key (the .pub file) instead.");
  }
  const parts = trimmed.split(/\s+/);
  if (parts.length < 2 || !ALLOWED.has(parts[0]!)) {
    throw badRequest("Not a supported SSH public key: use ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa (2048 bits or more).");
  }
  const parsed = ssh2.utils.parseKey(`${parts[0]} ${parts[1]}`);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.isPrivateKey()) {
    throw badRequest("The SSH public key could not be read: check that it was copied whole.");
  }
  if (parsed.type !== parts[0]) throw badRequest("The SSH public key's type does not match its data.");
  if (parsed.type === "ssh-rsa") {
    const bits = createPublicKey(parsed.getPublicPEM()).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) throw badRequest(`RSA keys must be at least 2048 bits (this one has ${bits}).`);
  }
  const blob = parsed.getPublicSSH();
  const comment = parts.slice(2).join(" ").slice(0, 200);
  return {
    line: [parts[0], blob.toString("base64"), comment].filter(Boolean).join(" "),
    type: parsed.type,
    fingerprint: "SHA256:" + createHash("sha256").update(blob).digest("base64").replace(/=+$/, ""),
  };
}

/** A recognisable but short form of the key for the settings page. */
export function sshKeyPreview(line: string): string {
  const [type, data = "", ...comment] = line.split(" ");
  const short = data.length > 24 ? `${data.slice(0, 12)}...${data.slice(-12)}` : data;
  return [type, short, ...comment].join(" ");
}
