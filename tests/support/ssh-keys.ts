// The one way tests register an SSH key, as a person does: ask for a nonce, sign it with the real
// `ssh-keygen -Y sign -n faultline`, send the public key with the signature
// (docs/api.md, "SSH key"). Works with any of the test harnesses' callers through `Send`.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SSH_KEY_NAMESPACE = "faultline";

export interface SshKeyFile {
  /** The private key's path; the public key is `${file}.pub`. */
  file: string;
  /** The .pub line, trimmed. */
  line: string;
  /** `SHA256:...` as `ssh-keygen -lf` prints it. */
  fingerprint: string;
}

/** A new key pair made by ssh-keygen (no passphrase) in `dir` (a new temporary folder by default). */
export function makeSshKey(
  name = "id",
  type: "ed25519" | "ecdsa" | "rsa" = "ed25519",
  opts: { bits?: number; comment?: string; dir?: string } = {},
): SshKeyFile {
  const file = join(opts.dir ?? mkdtempSync(join(tmpdir(), "faultline-testkey-")), name);
  const bits = opts.bits ? ["-b", String(opts.bits)] : type === "rsa" ? ["-b", "3072"] : [];
  execFileSync("ssh-keygen", ["-q", "-t", type, ...bits, "-N", "", "-C", opts.comment ?? `${name}@test`, "-f", file]);
  const fingerprint = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], { encoding: "utf8" }).split(" ")[1]!;
  return { file, line: readFileSync(`${file}.pub`, "utf8").trim(), fingerprint };
}

/** What the settings page tells a person to run: `echo -n '<nonce>' | ssh-keygen -Y sign -n faultline -f <key>`. */
export function signWithSshKey(keyFile: string, message: string, namespace = SSH_KEY_NAMESPACE): string {
  return execFileSync("ssh-keygen", ["-Y", "sign", "-n", namespace, "-f", keyFile], { input: message, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
}

/** One API call of a test harness, reduced to what registering a key needs. */
export type Send = (method: "POST" | "PUT", path: string, body?: Record<string, unknown>) => Promise<{ status: number; body: any }>;

/**
 * Registers a key through the API: a nonce, its signature by `signer` (a private key file), then
 * PUT /users/me/ssh-key with `value` (default: the signer's own public key, base64-encoded) and
 * `extra` (e.g. current_password when replacing a key). Answers what the PUT answered (or the
 * nonce request, when that failed).
 */
export async function putSshKey(send: Send, signer: string, opts: { value?: string; extra?: Record<string, unknown>; sign?: (nonce: string) => string } = {}) {
  const issued = await send("POST", "/users/me/ssh-key/nonce");
  if (issued.status !== 200) return issued;
  const nonce: string = issued.body.nonce;
  const signature = opts.sign ? opts.sign(nonce) : signWithSshKey(signer, nonce);
  const value = opts.value ?? Buffer.from(readFileSync(`${signer}.pub`, "utf8").trim()).toString("base64");
  return send("PUT", "/users/me/ssh-key", { ssh_public_key_b64: value, nonce, signature, ...opts.extra });
}

/**
 * An `ssh-rsa` public key line with a random odd modulus of `bits` bits and a public exponent of
 * `exponentBits` bits. No private key exists for it: anyone can write one, and with a huge
 * exponent every signature check with it costs ~100 times a normal key's.
 */
export function craftedRsaPublicKey(bits: number, exponentBits: number): string {
  const mpint = (n: number) => {
    const b = randomBytes(Math.ceil(n / 8));
    b[0]! &= 0xff >> (b.length * 8 - n);
    b[0]! |= 1 << ((n - 1) % 8);
    b[b.length - 1]! |= 1;
    return b[0]! & 0x80 ? Buffer.concat([Buffer.alloc(1), b]) : b;
  };
  const str = (b: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  return `ssh-rsa ${Buffer.concat([str(Buffer.from("ssh-rsa")), str(mpint(exponentBits)), str(mpint(bits))]).toString("base64")} crafted`;
}
