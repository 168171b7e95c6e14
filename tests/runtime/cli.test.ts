// The player CLI (cli/, `faultline`) against the real server (API, SSH gateway, worker), the
// local dockerd and the real OpenSSH client, as issue 25 asks: log in with a play token, start a
// challenge and wait for ready (--no-ssh prints the ssh command), run that command with ssh and
// the player's registered key, submit a wrong answer, see the deployment in status, terminate it,
// and see none.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runClient } from "../gateway/support.ts";
import { startTestServer, type Player } from "../support/server.ts";

const BIN = new URL("../../cli/faultline.mjs", import.meta.url).pathname;
const NGINX = "nginx-broken-config";

let server: Awaited<ReturnType<typeof startTestServer>>;
let player: Player;
let token: string;
let config: string;

function cli(args: string[], input = "", extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, XDG_CONFIG_HOME: config, HOME: config, ...extraEnv };
    delete env.FAULTLINE_TOKEN;
    delete env.FAULTLINE_URL;
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
    const timer = setTimeout(() => child.kill("SIGKILL"), 200_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      // Whatever it printed, never the token.
      expect(stdout + stderr).not.toContain(token.slice(4));
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  server = await startTestServer();
  player = await server.player();
  const made = await server.api.call("POST", "/users/me/tokens", { token: player.token, body: { name: "terminal", scope: "play" } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  token = made.body.token;
  config = mkdtempSync(join(tmpdir(), "faultline-cli-rt-"));
});
afterAll(async () => {
  await server?.api.call("POST", `/challenges/${NGINX}/session/terminate`, { token: player.token });
  await server?.stop();
  if (config) rmSync(config, { recursive: true, force: true });
});

it("login, start (ready, then the ssh command), ssh in, a wrong answer, status, terminate, status", async () => {
  const login = await cli(["login", "--token", "-", "--url", server.api.base], token);
  expect(login.code, login.stderr).toBe(0);
  expect(login.stdout).toContain(`with token "terminal" (scope play`);

  const start = await cli(["start", NGINX, "--no-ssh"]);
  expect(start.code, start.stderr).toBe(0);
  expect(start.stderr).toMatch(new RegExp(`${NGINX}: ready \\(\\d+ s\\)`));
  const command = start.stdout.trim();
  const pinned = join(config, "faultline", "known_hosts");
  expect(command).toBe(`ssh -p ${server.sshPort} -o UserKnownHostsFile=${pinned} -o StrictHostKeyChecking=yes ${NGINX}@127.0.0.1`);
  // The gateway's own host key is what the command checks against.
  expect(readFileSync(pinned, "utf8")).toContain(server.gateway!.hostPublicKey);

  // The printed command, run by the real ssh with the player's registered key (the host key is
  // checked against the pinned file: no StrictHostKeyChecking=no here).
  const [program, ...argv] = command.split(" ");
  expect(program).toBe("ssh");
  const key = [
    "-i",
    player.key.path,
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "IdentityAgent=none",
    "-o",
    "BatchMode=yes",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "ConnectTimeout=10",
  ];
  const inside = await runClient("ssh", [...key, ...argv, "hostname"], { timeoutMs: 60_000 });
  expect(inside.code, inside.stderr).toBe(0);
  expect(inside.stdout.trim()).toBe("web01");

  // Without --no-ssh the CLI runs the real ssh itself, with its own stdio. OpenSSH finds keys in
  // the passwd entry's home, not $HOME, so an `ssh` first on PATH adds the player's key (and
  // notes the arguments it was given: the token is not among them) before running the real one.
  const bin = join(config, "bin");
  mkdirSync(bin);
  const realSsh = execFileSync("sh", ["-c", "command -v ssh"], { encoding: "utf8" }).trim();
  writeFileSync(
    join(bin, "ssh"),
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${join(config, "ssh-argv")}'\nexec '${realSsh}' ${key.map((k) => `'${k}'`).join(" ")} "$@"\n`,
  );
  chmodSync(join(bin, "ssh"), 0o755);
  const shell = await cli(["start", NGINX], "hostname\nexit 0\n", { PATH: `${bin}:${process.env.PATH}` });
  expect(shell.code, shell.stderr).toBe(0);
  expect(shell.stderr).toContain(`${NGINX} is already running: using that deployment.`);
  expect(shell.stdout).toContain("web01");
  const given = readFileSync(join(config, "ssh-argv"), "utf8").trim().split("\n");
  expect(given).toEqual(argv);
  expect(given.join(" ")).not.toContain(token.slice(4));

  // A wrong answer: the check runs and says no (exit 1), feedback on stdout.
  const wrong = await cli(["submit", NGINX, "-"], "I restarted it and it still did not work\n");
  expect(wrong.code, wrong.stderr).toBe(1);
  expect(wrong.stdout).toMatch(/^Not solved yet\./);
  const wrongJson = await cli(["submit", NGINX, "still no idea", "--json"]);
  expect(wrongJson.code).toBe(1);
  expect(JSON.parse(wrongJson.stdout)).toMatchObject({ is_correct: false, points_awarded: 0 });

  const status = await cli(["status", "--json"]);
  expect(status.code, status.stderr).toBe(0);
  const doc = JSON.parse(status.stdout);
  expect(doc).toMatchObject({ url: server.api.base, token: { name: "terminal", scope: "play", username: player.username } });
  expect(doc.deployment).toMatchObject({ challenge_id: NGINX, status: "ready", ssh_details: { ssh_port: server.sshPort, ssh_user: NGINX } });
  const text = await cli(["status"]);
  expect(text.stdout).toContain(`Deployment of ${NGINX}`);
  expect(text.stdout).toContain(`ssh -p ${server.sshPort} ${NGINX}@127.0.0.1`);

  const end = await cli(["terminate"]);
  expect(end.code, end.stderr).toBe(0);
  expect(end.stdout).toContain(NGINX);

  const after = await cli(["status", "--json"]);
  expect(after.code).toBe(0);
  expect(JSON.parse(after.stdout).deployment).toBeNull();
  expect((await cli(["status"])).stdout).toContain("No deployment running.");
});
