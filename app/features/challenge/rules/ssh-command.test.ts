import { describe, expect, it } from "vitest";
import { SSH } from "./fixtures.ts";
import { sshCommand } from "./ssh-command.ts";

describe("ssh command", () => {
  it("uses the given port, user and host", () => {
    expect(sshCommand(SSH)).toBe("ssh -p 2222 d-abc@play.example.test");
  });
  it("defaults to port 22 and user ubuntu", () => {
    expect(sshCommand({ ssh_host: "h.example" })).toBe("ssh -p 22 ubuntu@h.example");
    expect(sshCommand({ ssh_host: "h.example", ssh_port: null, ssh_user: "" })).toBe("ssh -p 22 ubuntu@h.example");
  });
});
