// The gateway's host key: an ed25519 key made once (OpenSSH format, mode 0600) and reused at every
// start, so users' known_hosts entries stay valid across restarts.
import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import ssh2 from "ssh2";
import { sshFingerprint } from "#server/core/sshkeys.ts";

export interface HostKey {
  /** The private key in OpenSSH format, as ssh2's Server wants it. */
  privateKey: string;
  /** "ssh-ed25519 AAAA..." */
  publicKey: string;
  /** "SHA256:..." as ssh-keygen -l and the OpenSSH client print it. */
  fingerprint: string;
  created: boolean;
}

/**
 * A new ed25519 key in OpenSSH format. ssh2's generator drops a leading zero byte of the public
 * key (about one key in 256 then has a 31-byte public key and ssh2 itself calls it "Malformed
 * OpenSSH private key": a server on a fresh DATA_DIR failed to start that often), so a key is kept
 * only once ssh2 reads it back.
 */
export function generateHostKey(attempts = 20): { private: string; public: string } {
  for (let i = 0; i < attempts; i++) {
    const pair = ssh2.utils.generateKeyPairSync("ed25519", { comment: "faultline-gateway" });
    const parsed = ssh2.utils.parseKey(pair.private);
    if (!(parsed instanceof Error) && !Array.isArray(parsed) && parsed.getPublicSSH().length === 51) return pair;
  }
  throw new Error("could not generate an ssh host key that ssh2 reads back");
}

export function loadOrCreateHostKey(path: string, warn: (message: string) => void = () => {}): HostKey {
  let text: string | null = null;
  let created = false;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (text === null) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const pair = generateHostKey();
    // Written whole under a name of its own, then linked into place: a link fails if the name
    // exists, so two processes starting at once never overwrite each other's key, and neither
    // reads the other's file half written (writing the final name with "wx" let the second one
    // read it empty: "Malformed OpenSSH private key").
    const draft = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, pair.private, { mode: 0o600, flag: "wx" });
    try {
      linkSync(draft, path);
      created = true;
      text = pair.private;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      text = readFileSync(path, "utf8");
    } finally {
      unlinkSync(draft);
    }
  } else {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(path, 0o600);
      warn(`ssh host key ${path} was readable by others (mode ${mode.toString(8)}): set to 600`);
    }
  }
  const parsed = ssh2.utils.parseKey(text);
  if (parsed instanceof Error || Array.isArray(parsed) || !parsed.isPrivateKey()) {
    // Never replace it silently: every user's known_hosts entry would break.
    throw new Error(
      `ssh host key ${path} is not a readable private key${parsed instanceof Error ? ` (${parsed.message})` : ""}; move it away to make a new one`,
    );
  }
  const blob = parsed.getPublicSSH();
  return {
    privateKey: text,
    publicKey: `${parsed.type} ${blob.toString("base64")}`,
    fingerprint: sshFingerprint(blob),
    created,
  };
}
