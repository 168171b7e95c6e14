// Validates an OpenSSH public key: ed25519, ecdsa, or RSA of 2048 to 8192 bits with a public
// exponent of at most 2^32. The RSA bounds keep a signature check cheap: OpenSSL accepts any
// e < n, and a key with a 3000-bit exponent costs about 100 times a normal one to verify (the SSH
// gateway checks the same bounds before it verifies anything).
import { createHash } from "node:crypto";
import ssh2 from "ssh2";
import { badRequest } from "./errors.ts";

const ALLOWED = new Set(["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"]);

export interface ParsedSshKey {
  /** The normalised single line `type base64 [comment]`. */
  line: string;
  type: string;
  fingerprint: string;
  /** The key in SSH wire format. */
  blob: Buffer;
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
  const blob = parsed.getPublicSSH();
  const problem = sshKeyProblem(blob);
  if (problem) throw badRequest(problem);
  const comment = parts.slice(2).join(" ").slice(0, 200);
  return {
    line: [parts[0], blob.toString("base64"), comment].filter(Boolean).join(" "),
    type: parsed.type,
    blob,
    fingerprint: sshFingerprint(blob),
  };
}

/** A key's fingerprint as `ssh-keygen -l` prints it ("SHA256:<unpadded base64>"), from its SSH
 *  wire-format blob: the one formula for stored keys and keys offered to the gateway. */
export function sshFingerprint(blob: Buffer): string {
  return "SHA256:" + createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
}

export const RSA_LIMITS = { minBits: 2048, maxBits: 8192, maxExponentBits: 33 };

/**
 * Why a public key (SSH wire format) is not acceptable, or null. Only RSA has parameters to
 * bound: modulus 2048..8192 bits, public exponent at most 2^32 (33 bits; 65537 is 17). Reads the
 * blob's own fields, so it costs nothing whatever the key claims to be.
 */
export function sshKeyProblem(blob: Buffer): string | null {
  const fields = readSshStrings(blob, 3);
  if (!fields || fields[0]!.toString("latin1") !== "ssh-rsa") return null;
  const exponentBits = mpintBits(fields[1]!);
  const bits = mpintBits(fields[2]!);
  if (bits < RSA_LIMITS.minBits) return `RSA keys must be at least ${RSA_LIMITS.minBits} bits (this one has ${bits}).`;
  if (bits > RSA_LIMITS.maxBits) return `RSA keys must be at most ${RSA_LIMITS.maxBits} bits (this one has ${bits}).`;
  if (exponentBits > RSA_LIMITS.maxExponentBits) {
    return "This RSA key's public exponent is unusually large (more than 2^32): make a normal key with ssh-keygen.";
  }
  return null;
}

/** The first `count` length-prefixed strings of an SSH wire-format buffer, or null. */
export function readSshStrings(buf: Buffer, count: number): Buffer[] | null {
  const out: Buffer[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 4 > buf.length) return null;
    const len = buf.readUInt32BE(p);
    if (p + 4 + len > buf.length) return null;
    out.push(buf.subarray(p + 4, p + 4 + len));
    p += 4 + len;
  }
  return out;
}

/** Significant bits of a non-negative SSH mpint. */
function mpintBits(b: Buffer): number {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  if (i === b.length) return 0;
  return (b.length - i - 1) * 8 + (32 - Math.clz32(b[i]!));
}

/** A recognisable but short form of the key for the settings page. */
export function sshKeyPreview(line: string): string {
  const [type, data = "", ...comment] = line.split(" ");
  const short = data.length > 24 ? `${data.slice(0, 12)}...${data.slice(-12)}` : data;
  return [type, short, ...comment].join(" ");
}
