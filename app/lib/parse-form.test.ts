// The browser's validation (parseForm) must say what the server's (parseWithZod from
// @conform-to/zod/v4, used by the actions) says, for every form schema, so a form behaves the
// same with and without JavaScript.
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { SOLUTION_MAX } from "#shared/rules.ts";
import { submitSchema } from "#app/features/challenge/rules/form.ts";
import * as account from "./account-forms.ts";
import * as admin from "./admin-forms.ts";
import * as forms from "./forms.ts";
import { parseForm } from "./parse-form.ts";

const long = (n: number) => "x".repeat(n);
const sig = "-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----";

// Each form's schema with what a browser may send: empty, blank, too long, wrong, right.
const cases: [string, z.core.$ZodType, Record<string, string | string[]>[]][] = [
  [
    "login",
    forms.loginSchema,
    [
      {},
      { username: "", password: "" },
      { username: "  ", password: " " },
      { username: "neo", password: "x", redirectTo: "/a" },
      { username: "neo", password: "x", redirectTo: "" },
    ],
  ],
  [
    "register",
    forms.registerSchema,
    [
      {},
      { username: "neo_1", email: "neo@m.io", password: "password123", confirmPassword: "password123" },
      { username: "ab", email: "x", password: "short", confirmPassword: "shorty" },
      { username: "neo!", email: " a@b ", password: "password123", confirmPassword: "" },
      { username: "", email: "", password: "", confirmPassword: "" },
      { username: long(40), email: "a@b", password: long(300), confirmPassword: long(300) },
    ],
  ],
  ["2fa code", forms.secondFactorSchema, [{}, { code: "" }, { code: "12345" }, { code: " 123456 " }, { code: "abcdef" }]],
  [
    "recovery code",
    forms.recoveryCodeSchema,
    [
      {},
      { recovery_code: "" },
      { recovery_code: "abcd-efgh-jkmn-pqrs" },
      { recovery_code: " ABCD EFGH JKMN PQRS " },
      { recovery_code: "abcd" },
      { recovery_code: "uuuu-uuuu-uuuu-uuuu" },
    ],
  ],
  ["2fa on", forms.totpSetupSchema, [{}, { current_password: "" }, { current_password: "pw" }, { current_password: long(257) }]],
  [
    "2fa off / new recovery codes",
    forms.factorProofSchema,
    [
      {},
      { current_password: "", code: "" },
      { current_password: "pw" },
      { code: "123456" },
      { code: "abcd-efgh-jkmn-pqrs" },
      { code: "12" },
      { code: "abcd-efgh" },
      { current_password: long(257) },
    ],
  ],
  [
    "profile",
    forms.profileSchema,
    [
      {},
      { display_name: "", bio: "", location: "" },
      { display_name: long(65), bio: long(501), location: "Mars" },
      { display_name: " Neo ", bio: "hi", location: "Remote", dark_theme: "on" },
      { dark_theme: "yes" },
      { location: "Other" },
    ],
  ],
  ["notifications", forms.notificationsSchema, [{}, { newChallenges: "on", marketingEmails: "on" }, { newChallenges: "off" }, { solutionFeedback: "" }]],
  [
    "ssh key",
    forms.sshKeySchema,
    [
      {},
      { ssh_key: "", nonce: "", signature: "" },
      { ssh_key: "ssh-ed25519 AAAA", nonce: "n1", signature: sig },
      { ssh_key: long(16_001), nonce: long(201), signature: "nope" },
      { ssh_key: "k", nonce: "n", signature: long(16_001) },
      { ssh_key: "k", signature: sig },
    ],
  ],
  [
    "2fa off / ssh key delete",
    forms.totpDisableSchema,
    [{}, { current_password: "", code: "" }, { current_password: "pw" }, { code: "123456" }, { code: "12" }, { current_password: long(257) }],
  ],
  [
    "password change",
    forms.passwordChangeSchema,
    [
      {},
      { current_password: "a", new_password: "password1", confirm_password: "password1" },
      { current_password: "a", new_password: "short", confirm_password: "x" },
      { current_password: "", new_password: "", confirm_password: "" },
      { current_password: "a", new_password: "password1", confirm_password: "password2" },
    ],
  ],
  [
    "forgot password",
    account.forgotPasswordSchema,
    [{}, { email: "" }, { email: "a@b" }, { email: " a@b " }, { email: "a b@c" }, { email: `${long(250)}@b.io` }],
  ],
  [
    "new password",
    account.newPasswordSchema,
    [
      {},
      { token: "t", new_password: "password1", confirm_password: "password1" },
      { token: "", new_password: "short", confirm_password: "" },
      { token: "t", new_password: long(257), confirm_password: long(257) },
      { token: "t", new_password: "password1", confirm_password: "password2" },
    ],
  ],
  [
    "e-mail change",
    account.emailChangeSchema,
    [{}, { new_email: "a@b" }, { new_email: "a@b", code: "123456" }, { new_email: "x", current_password: "p" }, { new_email: "a@b", code: "1" }],
  ],
  ["e-mail change, no proof", account.emailChangeNoProofSchema, [{}, { new_email: "a@b" }, { new_email: "" }]],
  ["account deletion", account.deleteAccountSchema, [{}, { current_password: "p" }, { code: "12" }]],
  ["account deletion by name", account.deleteAccountByNameSchema, [{}, { username: " " }, { username: "neo" }]],
  [
    "admin settings",
    admin.settingsFormSchema,
    [
      {},
      { session_timeout_minutes: "30", max_concurrent_deployments: "5", maintenance_mode: "on" },
      { session_timeout_minutes: "0", max_concurrent_deployments: "1.5" },
      { session_timeout_minutes: "abc", max_concurrent_deployments: "" },
      { session_timeout_minutes: " 7 ", max_concurrent_deployments: "1e3" },
      { session_timeout_minutes: "99999999999999999999", max_concurrent_deployments: "-1" },
      { session_timeout_minutes: "0.5", max_concurrent_deployments: " " },
    ],
  ],
  [
    "admin new user",
    admin.createUserSchema,
    [
      {},
      { username: "neo", email: "a@b", password: "password1" },
      { username: "", email: "", password: "" },
      { username: "n!", email: "ab", password: "short" },
      { username: "neo", email: `${long(255)}@b`, password: long(257) },
    ],
  ],
  [
    "challenge solution",
    submitSchema,
    [{}, { solution: "  ", deployment_uid: "d" }, { solution: "fixed", deployment_uid: "d" }, { solution: long(SOLUTION_MAX + 1), deployment_uid: "" }],
  ],
  ["repeated field", forms.loginSchema, [{ username: ["a", "b"], password: "x" }]],
];

function formData(fields: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) fd.append(k, x);
  return fd;
}

/** The browser bundle has no classic zod, so no English locale: zod's own wording is "Invalid input". */
function inBrowser<T>(fn: () => T): T {
  const saved = z.config().localeError;
  z.config({ localeError: undefined });
  try {
    return fn();
  } finally {
    z.config({ localeError: saved });
  }
}
const errorOf = (s: object) => ("error" in s ? (s.error as Record<string, string[] | null> | undefined) : undefined);
// Only zod's built-in texts (never ours) may differ in wording; they start so.
const wording = (error: Record<string, string[] | null> | undefined) =>
  error && Object.fromEntries(Object.entries(error).map(([k, v]) => [k, v?.map((m) => (m.startsWith("Invalid input") ? "Invalid input" : m))]));

describe("parseForm (the browser's form validation)", () => {
  for (const [name, schema, inputs] of cases) {
    it(`gives what parseWithZod gives on the server: ${name}`, () => {
      for (const input of inputs) {
        const server = parseWithZod(formData(input), { schema });
        const browser = inBrowser(() => parseForm(formData(input), { schema }));
        const label = JSON.stringify(input).slice(0, 120);
        expect(browser.status, label).toBe(server.status);
        expect(browser.status === "success" ? browser.value : null, label).toEqual(server.status === "success" ? server.value : null);
        expect(wording(errorOf(browser)), label).toEqual(wording(errorOf(server)));
        expect(browser.payload, label).toEqual(server.payload);
      }
    });
  }

  it("shows the messages of form-texts.ts with no zod locale loaded", () => {
    const r = inBrowser(() => parseForm(formData({ username: "ab", email: "x", password: "short", confirmPassword: "y" }), { schema: forms.registerSchema }));
    expect(errorOf(r)).toEqual({
      username: ["Usernames are 3 to 32 letters, digits, _ or -"],
      email: ["Please enter a valid email address"],
      password: ["Password must be at least 8 characters long"],
      confirmPassword: ["Passwords do not match"],
    });
    expect(r.reply().error).toEqual(errorOf(r));
    // Only a value no form control sends meets zod's own (here locale-less) wording.
    const tampered = inBrowser(() => parseForm(formData({ dark_theme: "yes" }), { schema: forms.profileSchema }));
    expect(errorOf(tampered)).toEqual({ dark_theme: ["Invalid input"] });
  });

  it("refuses a kind of schema it cannot coerce like conform does, rather than guess", () => {
    expect(() => parseForm(formData({ when: "2026-01-01" }), { schema: z.object({ when: z.date() }) })).toThrow(/no form coercion for a zod "date"/);
    expect(() => parseForm(formData({ n: "1" }), { schema: z.object({ n: z.union([z.string(), z.number()]) }) })).toThrow(/"union"/);
  });
});
