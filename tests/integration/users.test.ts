// Users: public profiles, the SSH public key, profile fields, password change, notification
// preferences. SSH keys are real ones made by ssh-keygen.
// Over 350 lines: a user's own reads and writes (profile, key, password, preferences) share one
//  platform and key helpers.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCATIONS, STEP_UP_REQUIRED } from "#shared/rules.ts";
import { SSH_PROOF_ERRORS } from "#shared/sshkey-rules.ts";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform, type TestUser, unique } from "../support/platform.ts";
import { craftedRsaPublicKey, putSshKey, signWithSshKey } from "../support/ssh-keys.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

interface Key {
  file: string; // the private key file (for signing)
  pub: string; // the .pub line
  priv: string;
  fingerprint: string; // as `ssh-keygen -lf` prints it
}

const keyDir = mkdtempSync(join(tmpdir(), "faultline-keys-"));
let made = 0;
function keygen(name: string, args: string[]): Key {
  const file = join(keyDir, `${name}-${++made}`);
  execFileSync("ssh-keygen", [...args, "-N", "", "-C", `${name}@test`, "-f", file, "-q"]);
  const fingerprint = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], { encoding: "utf8" }).split(" ")[1]!;
  return { file, pub: readFileSync(`${file}.pub`, "utf8"), priv: readFileSync(file, "utf8"), fingerprint };
}
// A public key belongs to one account (the gateway routes by it), so every test gets keys of
// its own: made on first use in a test, forgotten after it.
const KEY_ARGS = {
  ed25519: ["-t", "ed25519"],
  ecdsa256: ["-t", "ecdsa", "-b", "256"],
  ecdsa384: ["-t", "ecdsa", "-b", "384"],
  rsa2048: ["-t", "rsa", "-b", "2048"],
  rsa1024: ["-t", "rsa", "-b", "1024"],
} as const;
type KeyName = keyof typeof KEY_ARGS;
let current: Partial<Record<KeyName, Key>> = {};
beforeEach(() => {
  current = {};
});
const keys = new Proxy({} as Record<KeyName, Key>, {
  get: (_, name: KeyName) => (current[name] ??= keygen(name, [...KEY_ARGS[name]])),
});
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

const b64 = (s: string) => Buffer.from(s).toString("base64");

const PUBLIC_FIELDS = [
  "username",
  "display_name",
  "bio",
  "location",
  "github_username",
  "is_verified",
  "created_at",
  "total_points",
  "rank",
  "challenges_completed",
  // Counts of the user's own activity, for the profile's solve rate (completed / attempted).
  "challenges_attempted",
  "solve_rate",
  "average_time",
  "level",
  "ranked_users",
  "achievements",
].sort();

describe.each(DATABASES)("users on %s", (kind) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(): Promise<TestUser & { token: string; refresh: string }> {
    const u = await t.register();
    const { access_token, refresh_token } = await t.login(u);
    return { ...u, token: access_token, refresh: refresh_token };
  }
  const me = async (token: string) => {
    const res = await t.call("GET", "/users/me", { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const send = (token: string) => (method: "POST" | "PUT", path: string, body?: Record<string, unknown>) => t.call(method, path, { token, body });
  /** The key of this test whose public half `value` carries (else ed25519): it signs the nonce. */
  const signerFor = (value: string) => {
    const text = /\s|PRIVATE/.test(value.trim()) ? value : Buffer.from(value, "base64").toString("utf8");
    const data = text.trim().split(/\s+/)[1];
    return Object.values(current).find((k) => k?.pub.split(" ")[1] === data) ?? keys.ed25519;
  };
  /** Registers `value` with a valid proof of possession (by the matching private key when the
   *  test has it) and `extra` (the step-up when replacing a key). */
  const putKey = (token: string, value: string, extra: Record<string, unknown> = {}) => putSshKey(send(token), signerFor(value).file, { value, extra });

  describe("GET /users/{username}", () => {
    it("shows public fields only, found case-insensitively", async () => {
      const u = await signedIn();
      await t.call("PATCH", "/users/me", { token: u.token, body: { display_name: "Pub Lic", bio: "hi", location: "Remote" } });
      await putKey(u.token, b64(keys.ed25519.pub));
      for (const name of [u.username, u.username.toUpperCase()]) {
        const res = await t.call("GET", `/users/${name}`);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(PUBLIC_FIELDS);
        expect(res.body).toMatchObject({ username: u.username, display_name: "Pub Lic", bio: "hi", location: "Remote", is_verified: false });
        expect(JSON.stringify(res.body)).not.toContain(u.email);
        expect(JSON.stringify(res.body)).not.toContain(keys.ed25519.fingerprint);
        expectNoSecrets(res.body, u.password);
      }
    });

    it("answers 404 for an unknown user", async () => {
      expectError(await t.call("GET", `/users/${unique("nobody")}`), 404, "User not found");
      expectError(await t.call("GET", `/users/${encodeURIComponent("a b/c")}`), 404);
    });

    it("never takes 'me' for a username: /users/me needs a token", async () => {
      expectError(await t.call("GET", "/users/me"), 401);
      expectError(await t.call("GET", "/users/me/ssh-key"), 401);
      expectError(await t.call("PATCH", "/users/me", { body: { bio: "x" } }), 401);
      expectError(await t.call("PUT", "/users/me/password", { body: { current_password: "a", new_password: "bbbbbbbb" } }), 401);
      expectError(await t.call("PUT", "/users/me/notifications", { body: {} }), 401);
      expectError(await t.call("PUT", "/users/me/ssh-key", { body: { ssh_public_key_b64: b64(keys.ed25519.pub) } }), 401);
      expectError(await t.call("POST", "/users/me/ssh-key/nonce"), 401);
      expectError(await t.call("DELETE", "/users/me/ssh-key"), 401);
    });
  });

  describe("/users/me/ssh-key", () => {
    it.each(["ed25519", "ecdsa256", "ecdsa384", "rsa2048"] as const)(
      "accepts a real %s public key, base64-encoded, and stores its SHA256 fingerprint",
      async (name) => {
        const u = await signedIn();
        const key = keys[name];
        const res = await putKey(u.token, b64(key.pub.trim()));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ has_ssh_key: true, fingerprint: key.fingerprint });

        const get = await t.call("GET", "/users/me/ssh-key", { token: u.token });
        expect(get.body).toMatchObject({ has_ssh_key: true, fingerprint: key.fingerprint });
        const [type, data] = key.pub.split(" ");
        expect(get.body.ssh_key_preview.startsWith(`${type} ${data!.slice(0, 12)}`)).toBe(true);
        expect(get.body.ssh_key_preview).toContain("...");
        expect(get.body.ssh_key_preview).toContain(`${name}@test`);
        expect(get.body.ssh_key_preview.length).toBeLessThan(key.pub.length);

        const user = await me(u.token);
        expect(user).toMatchObject({ has_ssh_key: true, ssh_key_preview: get.body.ssh_key_preview, ssh_key_fingerprint: key.fingerprint });
        expectNoSecrets(user);
      },
    );

    it("accepts the raw .pub line too, with its newline or CRLF", async () => {
      const u = await signedIn();
      for (const value of [keys.ed25519.pub, keys.ecdsa256.pub.replace(/\n$/, "\r\n"), `  ${keys.rsa2048.pub.trim()}  `]) {
        const res = await putKey(u.token, value, { current_password: u.password });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      // The last one saved replaces the others.
      expect((await me(u.token)).ssh_key_fingerprint).toBe(keys.rsa2048.fingerprint);
      // A base64 value with the .pub file's trailing newline inside works as well.
      expect((await putKey(u.token, b64(keys.ed25519.pub), { current_password: u.password })).body.fingerprint).toBe(keys.ed25519.fingerprint);
    });

    it("a key belongs to one account: another account cannot register it (even holding it); its owner can save it again", async () => {
      const owner = await signedIn();
      const other = await signedIn();
      expect((await putKey(owner.token, b64(keys.ed25519.pub))).status).toBe(200);
      // Public keys are public: taking someone's would route their ssh connections to you.
      const taken = await putKey(other.token, b64(keys.ed25519.pub.replace("ed25519@test", "mine")));
      expectError(taken, 409, "This SSH key is already registered to another account. Use a key of your own.");
      expect((await me(other.token)).has_ssh_key).toBe(false);
      expect((await putKey(owner.token, keys.ed25519.pub)).status).toBe(200);
      // Once the owner deletes it, it is free again.
      expect((await t.call("DELETE", "/users/me/ssh-key", { token: owner.token, body: { current_password: owner.password } })).status).toBe(200);
      expect((await putKey(other.token, keys.ed25519.pub)).status).toBe(200);
    });

    it("refuses an RSA key under 2048 bits, saying 2048", async () => {
      const u = await signedIn();
      for (const value of [b64(keys.rsa1024.pub), keys.rsa1024.pub]) {
        const res = await putKey(u.token, value);
        expectError(res, 400, /2048/);
      }
      expect((await me(u.token)).has_ssh_key).toBe(false);
    });

    it("refuses RSA keys that are costly to verify (a public exponent above 2^32, a modulus above 8192 bits), saying why", async () => {
      // Anyone can write such a key; the gateway would spend ~100x the CPU on it.
      const u = await signedIn();
      expectError(
        await putKey(u.token, b64(craftedRsaPublicKey(3072, 3064))),
        400,
        "This RSA key's public exponent is unusually large (more than 2^32): make a normal key with ssh-keygen.",
      );
      expectError(await putKey(u.token, craftedRsaPublicKey(9000, 17)), 400, "RSA keys must be at most 8192 bits (this one has 9000).");
      expect((await me(u.token)).has_ssh_key).toBe(false);
    });

    it("refuses a private key, saying so, and never stores it", async () => {
      const u = await signedIn();
      for (const value of [keys.ed25519.priv, b64(keys.ed25519.priv), keys.rsa2048.priv, b64(keys.rsa2048.priv)]) {
        const res = await putKey(u.token, value);
        expectError(res, 400, /private key/i);
      }
      expect((await me(u.token)).has_ssh_key).toBe(false);
      const row = await t.platform.db.selectFrom("users").select("ssh_public_key").where("id", "=", u.user.id).executeTakeFirst();
      expect(row?.ssh_public_key).toBeNull();
    });

    it("refuses garbage, truncated, mislabelled and unsupported keys", async () => {
      const u = await signedIn();
      const [edType, edData] = keys.ed25519.pub.split(" ");
      const [, rsaData] = keys.rsa2048.pub.split(" ");
      for (const value of [
        "hello",
        b64("hello world"),
        "ssh-ed25519",
        `${edType} ${edData!.slice(0, 30)}`,
        `${edType} AAAAnot-base64!!`,
        `ssh-rsa ${edData}`, // type does not match the data
        `${edType} ${rsaData}`,
        b64(`ssh-dss ${edData}`),
        "ssh-dss AAAAB3NzaC1kc3MAAACBAP",
        "x".repeat(20_000),
        "",
        "   ",
      ]) {
        const res = await putKey(u.token, value);
        expect(res.status, `${value.slice(0, 40)} → ${JSON.stringify(res.body)}`).toBe(400);
        expect(typeof res.body.detail).toBe("string");
      }
      expectError(await t.call("PUT", "/users/me/ssh-key", { token: u.token, body: {} }), 400, /ssh_public_key_b64/);
      expectError(
        await t.call("PUT", "/users/me/ssh-key", { token: u.token, body: { ssh_public_key_b64: b64(keys.ed25519.pub) } }),
        400,
        /signature: is required/,
      );
      expectError(await t.call("PUT", "/users/me/ssh-key", { token: u.token, body: { ssh_public_key_b64: 42 } }), 400);
      expect((await me(u.token)).has_ssh_key).toBe(false);
    });

    it("deletes the key", async () => {
      const u = await signedIn();
      expect((await putKey(u.token, b64(keys.ecdsa256.pub))).status).toBe(200);
      expectError(await t.call("DELETE", "/users/me/ssh-key", { token: u.token }), 400, STEP_UP_REQUIRED);
      expectError(
        await t.call("DELETE", "/users/me/ssh-key", { token: u.token, body: { current_password: "wrong password" } }),
        400,
        "Current password is incorrect",
      );
      expect((await me(u.token)).has_ssh_key).toBe(true);
      const del = await t.call("DELETE", "/users/me/ssh-key", { token: u.token, body: { current_password: u.password } });
      expect(del.status).toBe(200);
      expect(del.body.has_ssh_key).toBe(false);
      expect((await t.call("GET", "/users/me/ssh-key", { token: u.token })).body).toMatchObject({
        has_ssh_key: false,
        ssh_key_preview: null,
        fingerprint: null,
      });
      expect(await me(u.token)).toMatchObject({ has_ssh_key: false, ssh_key_preview: null, ssh_key_fingerprint: null });
    });
  });

  describe("/users/me/ssh-key: proof of possession", () => {
    const nonceFor = async (token: string) => {
      const res = await t.call("POST", "/users/me/ssh-key/nonce", { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ namespace: "faultline", expires_in: 900 });
      expect(res.body.sign_command).toBe(`echo -n '${res.body.nonce}' | ssh-keygen -Y sign -n faultline -f ~/.ssh/id_ed25519`);
      return res.body.nonce as string;
    };
    const put = (token: string, key: Key, nonce: string, signature: string, extra: Record<string, unknown> = {}) =>
      t.call("PUT", "/users/me/ssh-key", { token, body: { ssh_public_key_b64: b64(key.pub), nonce, signature, ...extra } });

    it("saves a key signed over the account's nonce with ssh-keygen -Y sign; the nonce is stored hashed", async () => {
      const u = await signedIn();
      const nonce = await nonceFor(u.token);
      const rows = await t.platform.db.selectFrom("ssh_key_nonces").selectAll().where("user_id", "=", u.user.id).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(nonce.slice(10));
      const res = await put(u.token, keys.ed25519, nonce, signWithSshKey(keys.ed25519.file, nonce));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ has_ssh_key: true, fingerprint: keys.ed25519.fingerprint });
    });

    it("refuses someone else's public key without its private key, and the owner can still register it", async () => {
      const victim = await signedIn();
      const attacker = await signedIn();
      // The attacker has the victim's public key (code hosts publish them) and signs with their own.
      const nonce = await nonceFor(attacker.token);
      const stolen = await put(attacker.token, keys.ed25519, nonce, signWithSshKey(keys.rsa2048.file, nonce));
      expectError(stolen, 400, SSH_PROOF_ERRORS.otherKey);
      expect((await me(attacker.token)).has_ssh_key).toBe(false);
      // A signature copied from elsewhere, over something else: refused too.
      const elsewhere = signWithSshKey(keys.ed25519.file, "some other text");
      expectError(await put(attacker.token, keys.ed25519, nonce, elsewhere), 400, SSH_PROOF_ERRORS.mismatch);
      expect((await putKey(victim.token, b64(keys.ed25519.pub))).status).toBe(200);
    });

    it("refuses a signature over another nonce, for another namespace, or with a nonce of another account", async () => {
      const u = await signedIn();
      const other = await signedIn();
      const mine = await nonceFor(u.token);
      const older = await nonceFor(u.token);
      expectError(await put(u.token, keys.ed25519, mine, signWithSshKey(keys.ed25519.file, older)), 400, SSH_PROOF_ERRORS.mismatch);
      expectError(await put(u.token, keys.ed25519, mine, signWithSshKey(keys.ed25519.file, mine, "git")), 400, SSH_PROOF_ERRORS.namespace);
      expectError(await put(u.token, keys.ed25519, mine, "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----"), 400, SSH_PROOF_ERRORS.malformed);
      expectError(await put(u.token, keys.ed25519, mine, "not a signature"), 400, /signature: must be the armored block/);
      const theirs = await nonceFor(other.token);
      expectError(await put(u.token, keys.ed25519, theirs, signWithSshKey(keys.ed25519.file, theirs)), 400, SSH_PROOF_ERRORS.nonce);
      expectError(await put(u.token, keys.ed25519, "faultline-made-up", signWithSshKey(keys.ed25519.file, "faultline-made-up")), 400, SSH_PROOF_ERRORS.nonce);
      expect((await me(u.token)).has_ssh_key).toBe(false);
      // `echo` without -n signs the nonce and a newline: accepted.
      expect((await put(u.token, keys.ed25519, older, signWithSshKey(keys.ed25519.file, `${older}\n`))).status).toBe(200);
    });

    it("a nonce works once", async () => {
      const u = await signedIn();
      const nonce = await nonceFor(u.token);
      const signature = signWithSshKey(keys.ed25519.file, nonce);
      expect((await put(u.token, keys.ed25519, nonce, signature)).status).toBe(200);
      expect((await t.call("DELETE", "/users/me/ssh-key", { token: u.token, body: { current_password: u.password } })).status).toBe(200);
      expectError(await put(u.token, keys.ed25519, nonce, signature), 400, SSH_PROOF_ERRORS.nonce);
      expect((await me(u.token)).has_ssh_key).toBe(false);
    });

    it("keeps at most 5 live nonces per account, the newest", async () => {
      const u = await signedIn();
      const nonces: string[] = [];
      for (let i = 0; i < 7; i++) nonces.push(await nonceFor(u.token));
      const count = await t.platform.db.selectFrom("ssh_key_nonces").select("nonce_hash").where("user_id", "=", u.user.id).execute();
      expect(count).toHaveLength(5);
      expectError(await put(u.token, keys.ed25519, nonces[0]!, signWithSshKey(keys.ed25519.file, nonces[0]!)), 400, SSH_PROOF_ERRORS.nonce);
      expect((await put(u.token, keys.ed25519, nonces[6]!, signWithSshKey(keys.ed25519.file, nonces[6]!))).status).toBe(200);
    });

    it("replacing or removing a key needs the current password (step-up)", async () => {
      const u = await signedIn();
      expect((await putKey(u.token, b64(keys.ed25519.pub))).status).toBe(200);
      // With only the session (a stolen cookie or token), the key cannot be swapped.
      expectError(await putKey(u.token, b64(keys.ecdsa256.pub)), 400, STEP_UP_REQUIRED);
      expectError(await putKey(u.token, b64(keys.ecdsa256.pub), { current_password: "not it" }), 400, "Current password is incorrect");
      expectError(await putKey(u.token, b64(keys.ecdsa256.pub), { code: "123456" }), 400, /not enabled/);
      expect((await me(u.token)).ssh_key_fingerprint).toBe(keys.ed25519.fingerprint);
      // Saving the same key again (a new comment) is no change of key.
      expect((await putKey(u.token, b64(keys.ed25519.pub))).status).toBe(200);
      expect((await putKey(u.token, b64(keys.ecdsa256.pub), { current_password: u.password })).status).toBe(200);
      expect((await me(u.token)).ssh_key_fingerprint).toBe(keys.ecdsa256.fingerprint);
    });
  });

  describe("PATCH /users/me", () => {
    it("saves display name, bio, location from the list, and theme", async () => {
      const u = await signedIn();
      const body = { display_name: "Ada L.", bio: "I fix things.\nSometimes.", location: "Berlin, Germany", theme: "light" };
      const res = await t.call("PATCH", "/users/me", { token: u.token, body });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(body);
      expect(await me(u.token)).toMatchObject(body);
      // A partial update leaves the rest alone; empty strings and null clear.
      await t.call("PATCH", "/users/me", { token: u.token, body: { theme: "dark" } });
      expect(await me(u.token)).toMatchObject({ ...body, theme: "dark" });
      await t.call("PATCH", "/users/me", { token: u.token, body: { bio: "", location: null, display_name: "  " } });
      expect(await me(u.token)).toMatchObject({ bio: null, location: null, display_name: null, theme: "dark" });
    });

    it("accepts every location of LOCATIONS (shared/rules.ts) and nothing else", async () => {
      const u = await signedIn();
      for (const location of LOCATIONS) {
        expect((await t.call("PATCH", "/users/me", { token: u.token, body: { location } })).body.location).toBe(location);
      }
      for (const location of ["Paris, France", "berlin, germany", "Remote ", 7]) {
        expectError(await t.call("PATCH", "/users/me", { token: u.token, body: { location } }), 400, /location/);
      }
      expect((await me(u.token)).location).toBe(LOCATIONS[LOCATIONS.length - 1]);
    });

    it("refuses a bad theme and over-long texts, naming the field", async () => {
      const u = await signedIn();
      expectError(await t.call("PATCH", "/users/me", { token: u.token, body: { theme: "blue" } }), 400, /theme/);
      expectError(await t.call("PATCH", "/users/me", { token: u.token, body: { display_name: "x".repeat(65) } }), 400, /display_name/);
      expectError(await t.call("PATCH", "/users/me", { token: u.token, body: { bio: "x".repeat(501) } }), 400, /bio/);
      expect((await t.call("PATCH", "/users/me", { token: u.token, body: { bio: "x".repeat(500) } })).status).toBe(200);
      // Fields that are not the profile's are ignored, not written.
      await t.call("PATCH", "/users/me", { token: u.token, body: { is_admin: true, email: "x@evil.test", username: "root" } });
      expect(await me(u.token)).toMatchObject({ is_admin: false, email: u.email, username: u.username });
    });
  });

  describe("PUT /users/me/password", () => {
    it("refuses a wrong current password and a short new one", async () => {
      const u = await signedIn();
      expectError(
        await t.call("PUT", "/users/me/password", { token: u.token, body: { current_password: "wrong one", new_password: "a new password" } }),
        400,
        "Current password is incorrect",
      );
      expectError(
        await t.call("PUT", "/users/me/password", { token: u.token, body: { current_password: u.password, new_password: "short" } }),
        400,
        /new_password/,
      );
      expectError(await t.call("PUT", "/users/me/password", { token: u.token, body: { new_password: "a new password" } }), 400, /current_password/);
      expect((await t.login(u)).access_token).toBeTruthy();
    });

    it("changes it: the old password fails, the new works, other logins end", async () => {
      const u = await signedIn();
      const other = await t.login(u);
      const newPassword = "a brand new passphrase";
      const res = await t.call("PUT", "/users/me/password", { token: u.token, body: { current_password: u.password, new_password: newPassword } });
      expect(res.status).toBe(200);
      expect(typeof res.body.access_token).toBe("string");
      expectNoSecrets(res.body, newPassword, u.password);

      expectError(
        await t.call("POST", "/auth/login", { body: { username_or_email: u.username, password: u.password }, ip: freshIp() }),
        401,
        "Incorrect username or password",
      );
      expect((await t.login({ username: u.username, password: newPassword })).access_token).toBeTruthy();
      for (const old of [u.refresh, other.refresh_token]) {
        expectError(await t.call("POST", "/auth/refresh", { body: { refresh_token: old } }), 401);
      }
      // The login that changed it carries on with the tokens it was given.
      expect((await t.call("POST", "/auth/refresh", { body: { refresh_token: res.body.refresh_token } })).status).toBe(200);
    });
  });

  describe("PUT /users/me/notifications", () => {
    it("starts from the defaults and persists changes, partial ones included", async () => {
      const u = await signedIn();
      expect((await me(u.token)).notifications).toEqual({
        newChallenges: true,
        solutionFeedback: true,
        leaderboardUpdates: false,
        marketingEmails: false,
      });
      const all = { newChallenges: false, solutionFeedback: false, leaderboardUpdates: true, marketingEmails: true };
      const res = await t.call("PUT", "/users/me/notifications", { token: u.token, body: all });
      expect(res.status).toBe(200);
      expect(res.body.notifications).toEqual(all);
      expect((await me(u.token)).notifications).toEqual(all);
      await t.call("PUT", "/users/me/notifications", { token: u.token, body: { newChallenges: true } });
      expect((await me(u.token)).notifications).toEqual({ ...all, newChallenges: true });
    });

    it("refuses values that are not booleans", async () => {
      const u = await signedIn();
      expectError(await t.call("PUT", "/users/me/notifications", { token: u.token, body: { marketingEmails: "yes" } }), 400, /marketingEmails/);
      expect((await me(u.token)).notifications.marketingEmails).toBe(false);
    });
  });
});
