import { describe, expect, it } from "vitest";
import { loginSchema, registerSchema, registrationError } from "./forms.ts";

const errorsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("register form", () => {
  const valid = { username: "neo_1", email: "neo@matrix.io", password: "password123", confirmPassword: "password123" };

  it("accepts a complete form", () => {
    expect(registerSchema.safeParse(valid).success).toBe(true);
  });

  it("uses the messages of form-texts.ts", () => {
    expect(errorsOf(registerSchema.safeParse({ ...valid, email: "neo.matrix.io" }))).toEqual({ email: "Please enter a valid email address" });
    expect(errorsOf(registerSchema.safeParse({ ...valid, confirmPassword: "password124" }))).toEqual({ confirmPassword: "Passwords do not match" });
    expect(errorsOf(registerSchema.safeParse({ ...valid, password: "short", confirmPassword: "short" }))).toEqual({
      password: "Password must be at least 8 characters long",
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, username: undefined }))).toEqual({ username: "Please fill in all required fields" });
  });

  it("refuses usernames outside 3-32 letters, digits, _ and -", () => {
    for (const username of ["ab", "a".repeat(33), "bad name", "neo!"]) {
      expect(registerSchema.safeParse({ ...valid, username }).success).toBe(false);
    }
  });
});

describe("login form", () => {
  it("needs username and password", () => {
    expect(errorsOf(loginSchema.safeParse({}))).toEqual({
      username: "Please fill in all required fields",
      password: "Please fill in all required fields",
    });
    expect(loginSchema.safeParse({ username: "neo", password: "x" }).success).toBe(true);
  });
});

describe("registration errors", () => {
  it("prefers the server's detail, then the catalogue's fallback by status", () => {
    expect(registrationError(400, "username: too short")).toBe("username: too short");
    expect(registrationError(409, "")).toBe("Username or email already exists");
    expect(registrationError(400, "")).toBe("Invalid registration data");
    expect(registrationError(404, "")).toBe("Registration endpoint not found");
    expect(registrationError(500, "")).toBe("Failed to register");
  });
});
