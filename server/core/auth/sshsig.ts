// Verifies an OpenSSH "SSHSIG" signature, as `ssh-keygen -Y sign -n <namespace>` writes it
// (the format is PROTOCOL.sshsig in OpenSSH's source):
//
//   armored blob = "SSHSIG" uint32(1) string(public key) string(namespace) string(reserved)
//                  string(hash algorithm) string(signature)
//   signed data  = "SSHSIG" string(namespace) string(reserved) string(hash algorithm) string(H(message))
//
// Used to prove that whoever registers an SSH key holds its private key: the key's owner signs a
// nonce the server handed out (docs/decisions/004-ssh-gateway.md, "Proof of possession").
import { createHash, createPublicKey, verify } from "node:crypto";
import ssh2 from "ssh2";
import { readSshStrings, sshKeyProblem } from "#server/core/sshkeys.ts";

const MAGIC = Buffer.from("SSHSIG");
const HASHES = new Set(["sha256", "sha512"]);
const ECDSA: Record<string, { hash: string; size: number }> = {
  "ecdsa-sha2-nistp256": { hash: "sha256", size: 32 },
  "ecdsa-sha2-nistp384": { hash: "sha384", size: 48 },
  "ecdsa-sha2-nistp521": { hash: "sha512", size: 66 },
};
/** SHA-1 RSA signatures ("ssh-rsa") are refused, as OpenSSH refuses them for SSHSIG. */
const RSA: Record<string, string> = { "rsa-sha2-256": "sha256", "rsa-sha2-512": "sha512" };

export type SshSignatureCheck = { ok: true } | { ok: false; reason: "malformed" | "other-key" | "namespace" | "unsupported" | "mismatch" };

/** The base64 body of an armored `-----BEGIN SSH SIGNATURE-----` block, decoded; null when not one. */
export function dearmorSshSignature(text: string): Buffer | null {
  const m = /-----BEGIN SSH SIGNATURE-----([\s\S]*?)-----END SSH SIGNATURE-----/.exec(text);
  if (!m) return null;
  const body = m[1]!.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return null;
  const blob = Buffer.from(body, "base64");
  return blob.length >= MAGIC.length + 4 ? blob : null;
}

/**
 * Checks that `armored` is a signature by the key `publicKeyBlob` (SSH wire format) over one of
 * `messages`, made for `namespace`.
 */
export function verifySshSignature(armored: string, publicKeyBlob: Buffer, namespace: string, messages: (string | Buffer)[]): SshSignatureCheck {
  const blob = dearmorSshSignature(armored);
  if (!blob || !blob.subarray(0, MAGIC.length).equals(MAGIC) || blob.readUInt32BE(MAGIC.length) !== 1) return { ok: false, reason: "malformed" };
  const fields = readSshStrings(blob.subarray(MAGIC.length + 4), 5);
  if (!fields) return { ok: false, reason: "malformed" };
  const [signer, ns, reserved, hashAlg, signature] = fields as [Buffer, Buffer, Buffer, Buffer, Buffer];
  if (!signer.equals(publicKeyBlob)) return { ok: false, reason: "other-key" };
  if (ns.toString("utf8") !== namespace) return { ok: false, reason: "namespace" };
  const hash = hashAlg.toString("latin1");
  if (!HASHES.has(hash)) return { ok: false, reason: "unsupported" };
  if (sshKeyProblem(publicKeyBlob)) return { ok: false, reason: "unsupported" };

  const sig = readSshStrings(signature, 2);
  const keyType = readSshStrings(publicKeyBlob, 1)?.[0]?.toString("latin1");
  if (!sig || !keyType) return { ok: false, reason: "malformed" };
  const [formatBuf, sigData] = sig as [Buffer, Buffer];
  const format = formatBuf.toString("latin1");
  const parsed = ssh2.utils.parseKey(`${keyType} ${publicKeyBlob.toString("base64")}`);
  if (parsed instanceof Error || Array.isArray(parsed)) return { ok: false, reason: "malformed" };
  const key = createPublicKey(parsed.getPublicPEM());

  let check: (data: Buffer) => boolean;
  if (keyType === "ssh-ed25519" && format === keyType) {
    check = (data) => verify(null, data, key, sigData);
  } else if (keyType === "ssh-rsa" && RSA[format]) {
    check = (data) => verify(RSA[format]!, data, key, sigData);
  } else if (ECDSA[keyType] && format === keyType) {
    const { hash: ecHash, size } = ECDSA[keyType]!;
    const rs = readSshStrings(sigData, 2);
    if (!rs) return { ok: false, reason: "malformed" };
    // r and s are mpints (a leading zero when the top bit is set); ieee-p1363 wants each as a
    // fixed-size big-endian number.
    const fixed = rs.map((n) => {
      let i = 0;
      while (i < n.length && n[i] === 0) i++;
      const t = n.subarray(i);
      return t.length > size ? null : Buffer.concat([Buffer.alloc(size - t.length), t]);
    });
    if (fixed.some((x) => !x)) return { ok: false, reason: "malformed" };
    const p1363 = Buffer.concat(fixed as Buffer[]);
    check = (data) => verify(ecHash, data, { key, dsaEncoding: "ieee-p1363" }, p1363);
  } else {
    return { ok: false, reason: "unsupported" };
  }

  for (const message of messages) {
    const data = Buffer.concat([MAGIC, sshString(ns), sshString(reserved), sshString(hashAlg), sshString(createHash(hash).update(message).digest())]);
    try {
      if (check(data)) return { ok: true };
    } catch {
      return { ok: false, reason: "malformed" };
    }
  }
  return { ok: false, reason: "mismatch" };
}

function sshString(b: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}
