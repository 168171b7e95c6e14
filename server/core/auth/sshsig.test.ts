// SSHSIG verification against signatures made by the real `ssh-keygen -Y sign`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifySshSignature } from "./sshsig.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-sshsig-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string, ...args: string[]) {
  const file = join(dir, name);
  execFileSync("ssh-keygen", [...args, "-N", "", "-C", name, "-f", file, "-q"]);
  const blob = Buffer.from(readFileSync(`${file}.pub`, "utf8").split(" ")[1]!, "base64");
  return { file, blob };
}

/** What a user runs: `echo -n '<nonce>' | ssh-keygen -Y sign -n <namespace> -f <key>`. */
function sign(file: string, message: string, namespace = "faultline") {
  return execFileSync("ssh-keygen", ["-Y", "sign", "-n", namespace, "-f", file], { input: message, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] });
}

const keys = {
  ed25519: keygen("ed25519", "-t", "ed25519"),
  ecdsa256: keygen("ecdsa256", "-t", "ecdsa", "-b", "256"),
  ecdsa384: keygen("ecdsa384", "-t", "ecdsa", "-b", "384"),
  ecdsa521: keygen("ecdsa521", "-t", "ecdsa", "-b", "521"),
  rsa: keygen("rsa", "-t", "rsa", "-b", "2048"),
};

describe("verifySshSignature", () => {
  it.each(Object.keys(keys) as (keyof typeof keys)[])("accepts ssh-keygen -Y sign with %s, over the message or the message and a newline", (name) => {
    const key = keys[name];
    // Several signatures per key type: ECDSA's r and s are sometimes shorter than the field.
    for (let i = 0; i < 4; i++) {
      const nonce = `nonce-${name}-${i}`;
      expect(verifySshSignature(sign(key.file, nonce), key.blob, "faultline", [nonce])).toEqual({ ok: true });
      expect(verifySshSignature(sign(key.file, `${nonce}\n`), key.blob, "faultline", [nonce, `${nonce}\n`])).toEqual({ ok: true });
    }
  });

  it("refuses another message, another namespace, another key, and garbage", () => {
    const sig = sign(keys.ed25519.file, "nonce-1");
    expect(verifySshSignature(sig, keys.ed25519.blob, "faultline", ["nonce-2"])).toEqual({ ok: false, reason: "mismatch" });
    expect(verifySshSignature(sign(keys.ed25519.file, "nonce-1", "git"), keys.ed25519.blob, "faultline", ["nonce-1"])).toEqual({
      ok: false,
      reason: "namespace",
    });
    expect(verifySshSignature(sig, keys.rsa.blob, "faultline", ["nonce-1"])).toEqual({ ok: false, reason: "other-key" });
    expect(verifySshSignature("hello", keys.ed25519.blob, "faultline", ["nonce-1"])).toEqual({ ok: false, reason: "malformed" });
    expect(verifySshSignature("-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----", keys.ed25519.blob, "faultline", ["x"]).ok).toBe(false);
    // A flipped bit in the signature itself.
    const body = sig.split("\n").slice(1, -2).join("");
    const raw = Buffer.from(body, "base64");
    raw[raw.length - 5]! ^= 1;
    const broken = `-----BEGIN SSH SIGNATURE-----\n${raw.toString("base64")}\n-----END SSH SIGNATURE-----\n`;
    expect(verifySshSignature(broken, keys.ed25519.blob, "faultline", ["nonce-1"])).toEqual({ ok: false, reason: "mismatch" });
    // Truncated.
    const cut = `-----BEGIN SSH SIGNATURE-----\n${raw.subarray(0, 40).toString("base64")}\n-----END SSH SIGNATURE-----\n`;
    expect(verifySshSignature(cut, keys.ed25519.blob, "faultline", ["nonce-1"])).toEqual({ ok: false, reason: "malformed" });
  });
});
