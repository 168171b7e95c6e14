// Users: public profiles, the SSH public key, profile fields, password change, notification
// preferences. SSH keys are real ones made by ssh-keygen.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCATIONS } from "../../server/core/rules.ts";
import { createTestPlatform, DATABASES, freshIp, type TestPlatform, type TestUser, unique } from "../support/platform.ts";
import { expectError, expectNoSecrets } from "./assertions.ts";

interface Key {
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
  return { pub: readFileSync(`${file}.pub`, "utf8"), priv: readFileSync(file, "utf8"), fingerprint };
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
  const putKey = (token: string, value: string) => t.call("PUT", "/users/me/ssh-key", { token, body: { ssh_public_key_b64: value } });

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
        const res = await putKey(u.token, value);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      // The last one saved replaces the others.
      expect((await me(u.token)).ssh_key_fingerprint).toBe(keys.rsa2048.fingerprint);
      // A base64 value with the .pub file's trailing newline inside works as well.
      expect((await putKey(u.token, b64(keys.ed25519.pub))).body.fingerprint).toBe(keys.ed25519.fingerprint);
    });

    it("a key belongs to one account: another account cannot register it; its owner can save it again", async () => {
      const owner = await signedIn();
      const other = await signedIn();
      expect((await putKey(owner.token, b64(keys.ed25519.pub))).status).toBe(200);
      // Public keys are public: taking someone's would route their ssh connections to you.
      const taken = await putKey(other.token, b64(keys.ed25519.pub.replace("ed25519@test", "mine")));
      expectError(taken, 409, "This SSH key is already registered to another account. Use a key of your own.");
      expect((await me(other.token)).has_ssh_key).toBe(false);
      expect((await putKey(owner.token, keys.ed25519.pub)).status).toBe(200);
      // Once the owner deletes it, it is free again.
      expect((await t.call("DELETE", "/users/me/ssh-key", { token: owner.token })).status).toBe(200);
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
      expectError(await t.call("PUT", "/users/me/ssh-key", { token: u.token, body: { ssh_public_key_b64: 42 } }), 400);
      expect((await me(u.token)).has_ssh_key).toBe(false);
    });

    it("deletes the key", async () => {
      const u = await signedIn();
      expect((await putKey(u.token, b64(keys.ecdsa256.pub))).status).toBe(200);
      const del = await t.call("DELETE", "/users/me/ssh-key", { token: u.token });
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

    it("accepts every location of the spec's list and nothing else", async () => {
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
