// Assertions shared by the API tests.
import { expect } from "vitest";

const SECRET_KEYS = ["password_hash", "password", "totp_secret", "totp_last_step", "ssh_public_key", "token_hash"];

/** No stored secret leaves the server: no secret column, no argon2 hash, no given password. */
export function expectNoSecrets(body: unknown, ...plain: string[]) {
  const text = JSON.stringify(body);
  const keys = new Set<string>();
  (function walk(v: unknown) {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        keys.add(k);
        walk(x);
      }
    }
  })(body);
  for (const k of SECRET_KEYS) expect(keys, `the answer carries "${k}"`).not.toContain(k);
  expect(text).not.toContain("$argon2");
  for (const p of plain) expect(text).not.toContain(p);
}

/** The API's error envelope: exactly this status and a `detail` string (matching when given). */
export function expectError(res: { status: number; body: any }, status: number, detail?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body?.detail, JSON.stringify(res.body)).toBe("string");
  if (typeof detail === "string") expect(res.body.detail).toBe(detail);
  else if (detail) expect(res.body.detail).toMatch(detail);
}
