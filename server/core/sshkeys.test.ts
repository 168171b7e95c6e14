import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { parseSshPublicKey, sshKeyPreview, sshKeyProblem } from "./sshkeys.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-sshkeys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string, ...args: string[]) {
  const file = join(dir, name);
  execFileSync("ssh-keygen", [...args, "-N", "", "-C", `${name} comment`, "-f", file, "-q"]);
  const [bits, fingerprint] = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], { encoding: "utf8" }).split(" ");
  return { pub: readFileSync(`${file}.pub`, "utf8"), priv: readFileSync(file, "utf8"), fingerprint: fingerprint!, bits: Number(bits) };
}

const ed25519 = keygen("ed25519", "-t", "ed25519");
const rsa3072 = keygen("rsa3072", "-t", "rsa", "-b", "3072");

/** An `ssh-rsa` line with a random odd modulus of `bits` bits and an exponent of `eBits` bits. */
function rsaLine(bits: number, eBits: number): string {
  const mpint = (nbits: number) => {
    const b = randomBytes(Math.ceil(nbits / 8));
    b[0]! &= 0xff >> (b.length * 8 - nbits);
    b[0]! |= 1 << ((nbits - 1) % 8);
    b[b.length - 1]! |= 1;
    return b[0]! & 0x80 ? Buffer.concat([Buffer.alloc(1), b]) : b;
  };
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, 0].map((_, i) => (b.length >>> (24 - 8 * i)) & 0xff)), b]);
  return `ssh-rsa ${Buffer.concat([str(Buffer.from("ssh-rsa")), str(mpint(eBits)), str(mpint(bits))]).toString("base64")} crafted`;
}

function refusal(text: string): string {
  try {
    parseSshPublicKey(text);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).kind).toBe("invalid"); // the API's 400
    return (e as DomainError).detail;
  }
  throw new Error(`accepted: ${text.slice(0, 60)}`);
}

describe("parseSshPublicKey", () => {
  it.each([
    ["ed25519", ["-t", "ed25519"], "ssh-ed25519"],
    ["ecdsa256", ["-t", "ecdsa", "-b", "256"], "ecdsa-sha2-nistp256"],
    ["ecdsa384", ["-t", "ecdsa", "-b", "384"], "ecdsa-sha2-nistp384"],
    ["ecdsa521", ["-t", "ecdsa", "-b", "521"], "ecdsa-sha2-nistp521"],
    ["rsa2048", ["-t", "rsa", "-b", "2048"], "ssh-rsa"],
  ])("accepts %s with the fingerprint ssh-keygen shows", (name, args, type) => {
    const key = name === "ed25519" ? ed25519 : keygen(name, ...args);
    const parsed = parseSshPublicKey(key.pub);
    expect(parsed.type).toBe(type);
    expect(parsed.fingerprint).toBe(key.fingerprint);
    expect(parsed.line).toBe(key.pub.trim());
  });

  it("normalises whitespace and keeps the comment", () => {
    const [type, data] = ed25519.pub.trim().split(" ");
    const parsed = parseSshPublicKey(`\n  ${type}\t${data}   my  laptop \r\n`);
    expect(parsed.line).toBe(`${type} ${data} my laptop`);
    expect(parseSshPublicKey(`${type} ${data}`).line).toBe(`${type} ${data}`);
    expect(parseSshPublicKey(`${type} ${data} ${"c".repeat(500)}`).line.length).toBe(`${type} ${data} `.length + 200);
  });

  it("refuses RSA under 2048 bits, saying how many it has", () => {
    const weak = keygen("rsa1024", "-t", "rsa", "-b", "1024");
    expect(refusal(weak.pub)).toBe("RSA keys must be at least 2048 bits (this one has 1024).");
    expect(parseSshPublicKey(rsa3072.pub).fingerprint).toBe(rsa3072.fingerprint);
  });

  it("refuses RSA keys that are costly to verify: a public exponent above 2^32 or a modulus above 8192 bits", () => {
    // Anyone can write such a "key" without a private key; OpenSSL would verify signatures with it.
    const hugeExponent = rsaLine(3072, 3064);
    expect(refusal(hugeExponent)).toBe("This RSA key's public exponent is unusually large (more than 2^32): make a normal key with ssh-keygen.");
    expect(refusal(rsaLine(9000, 17))).toBe("RSA keys must be at most 8192 bits (this one has 9000).");
    expect(refusal(rsaLine(2048, 34))).toMatch(/public exponent is unusually large/);
    expect(parseSshPublicKey(rsaLine(2048, 33)).type).toBe("ssh-rsa");
    expect(parseSshPublicKey(rsaLine(8192, 17)).type).toBe("ssh-rsa");
    // The rule the gateway applies to offered keys is the same function.
    expect(sshKeyProblem(Buffer.from(hugeExponent.split(" ")[1]!, "base64"))).toMatch(/exponent/);
    expect(sshKeyProblem(Buffer.from(ed25519.pub.split(" ")[1]!, "base64"))).toBeNull();
  });

  it("refuses private keys, saying so", () => {
    expect(refusal(ed25519.priv)).toMatch(/private key/);
    expect(refusal(rsa3072.priv)).toMatch(/private key/);
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(refusal(pem)).toMatch(/private key/);
  });

  it("refuses unsupported types, mislabelled, truncated and garbage keys", () => {
    const [type, data] = ed25519.pub.split(" ");
    const [, rsaData] = rsa3072.pub.split(" ");
    expect(refusal(`ssh-dss ${data}`)).toMatch(/Not a supported SSH public key/);
    expect(refusal(`sk-ssh-ed25519@openssh.com ${data}`)).toMatch(/Not a supported/);
    expect(refusal(`${type}`)).toMatch(/Not a supported/);
    expect(refusal("")).toMatch(/Not a supported/);
    expect(refusal(`ssh-rsa ${data}`)).toMatch(/does not match|could not be read/);
    expect(refusal(`${type} ${rsaData}`)).toMatch(/does not match|could not be read/);
    expect(refusal(`${type} ${data!.slice(0, 40)}`)).toMatch(/could not be read/);
    expect(refusal(`${type} !!!!`)).toMatch(/could not be read/);
  });
});

describe("sshKeyPreview", () => {
  it("shortens the key data and keeps type and comment", () => {
    const line = parseSshPublicKey(ed25519.pub).line;
    const [type, data] = line.split(" ");
    expect(sshKeyPreview(line)).toBe(`${type} ${data!.slice(0, 12)}...${data!.slice(-12)} ed25519 comment`);
    expect(sshKeyPreview("ssh-ed25519 SHORT")).toBe("ssh-ed25519 SHORT");
  });
});
