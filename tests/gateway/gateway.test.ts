// The SSH gateway against a real dockerd and the real OpenSSH client (ssh, scp, sftp), with tmux
// driving interactive terminals. Each test suite creates its own deployment (network + container
// from the base image) through the runtime and removes it afterwards, even when a test fails.
// Only 127.0.0.1 is used.
// Over 350 lines: each suite sets up a gateway and a deployment once for all its cases (seconds
//  each); files of their own would set them up again.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, createGateway } from "#server/gateway/gateway.ts";
import type { Gateway, GatewayLogger, GatewayOptions, Resolve, Target } from "#server/gateway/types.ts";
import { createDockerRuntime } from "#server/runtime/docker/index.ts";
import { runCommand } from "#server/runtime/exec.ts";
import { BASE_IMAGE } from "#server/runtime/images.ts";
import type { ContainerInfo, Runtime } from "#server/runtime/types.ts";
import { craftedRsaPublicKey } from "../support/ssh-keys.ts";
import { clientOptions, createTmux, killClients, makeKey, percentile, runClient, startClient, waitFor, type ClientKey } from "./support.ts";

const run = `gw${randomBytes(3).toString("hex")}`;
const HOST = "127.0.0.1";
const PROMPT = "root@web01:~# ";
/** A user's default log level: OpenSSH shows the gateway's banners (refusal reasons) at INFO. */
const INFO = ["-o", "LogLevel=INFO"];

let rt: Runtime;
let dir: string;
let c: ContainerInfo;
const deploymentId = `${run}-main`;
let keys: Record<"good" | "wrong" | "orphan" | "pending" | "homeless", ClientKey>;
const resolveCalls: { user: string; blob: Buffer; algo: string }[] = [];
const logLines: string[] = [];
const log: GatewayLogger = {
  debug: () => {},
  info: (m) => logLines.push(m),
  warn: (m) => logLines.push(`WARN ${m}`),
  error: (m, e) => logLines.push(`ERROR ${m} ${e instanceof Error ? e.message : ""}`),
};

function target(extra: Partial<Target> = {}): Target {
  return { deploymentId, containerId: c.id, shellUser: "root", hostname: "web01", userId: "user-1", ...extra };
}

const resolve: Resolve = async (user, key) => {
  resolveCalls.push({ user, blob: key.data, algo: key.algo });
  if (user === "slow") await new Promise((r) => setTimeout(r, 400));
  if (user === "broken") throw new Error("database unavailable");
  if (key.data.equals(keys.good.blob)) return target();
  if (key.data.equals(keys.homeless.blob)) return target({ home: "/nonexistent-home" });
  if (key.data.equals(keys.pending.blob)) return { refuse: "Your deployment is still being set up: try again in a few seconds." };
  return null; // keys.orphan (registered, no deployment) and keys.wrong (unknown) alike
};

function gateway(extra: Partial<GatewayOptions> = {}): Gateway {
  return createGateway({ port: 0, host: HOST, hostKeyPath: join(dir, "data", "ssh_host_ed25519_key"), runtime: rt, resolve, log, ...extra });
}

const sh = (script: string) => runCommand(rt, c.id, ["bash", "-c", script], { timeoutMs: 10_000 });
const running = async (pattern: string) => (await runCommand(rt, c.id, ["pgrep", "-f", pattern])).exitCode === 0;

beforeAll(async () => {
  rt = createDockerRuntime();
  await rt.ping();
  dir = mkdtempSync(join(tmpdir(), "faultline-gw-"));
  const owner = { deploymentId, userId: "user-1", challengeId: "gateway-test" };
  const network = await rt.createNetwork(owner);
  c = await rt.createContainer({
    owner,
    role: "target",
    image: BASE_IMAGE,
    hostname: "web01",
    network: network.name,
    expiresAt: new Date(Date.now() + 15 * 60_000),
  });
  keys = {
    good: await makeKey(dir, "good"),
    wrong: await makeKey(dir, "wrong"),
    orphan: await makeKey(dir, "orphan"),
    pending: await makeKey(dir, "pending"),
    homeless: await makeKey(dir, "homeless"),
  };
});

afterAll(async () => {
  killClients();
  if (rt) {
    const mine = new Set([...(await rt.list()).map((x) => x.owner.deploymentId), ...(await rt.listNetworks()).map((n) => n.owner.deploymentId)]);
    await Promise.all([...mine].filter((d) => d.startsWith(run)).map((d) => rt.removeDeployment(d)));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("ssh gateway with OpenSSH", () => {
  let gw: Gateway;
  let port: number;
  const ssh = (key: ClientKey, command: string[], opts: { user?: string; extra?: string[]; input?: string; timeoutMs?: number } = {}) =>
    runClient("ssh", [...clientOptions(key, opts.extra), "-p", String(port), `${opts.user ?? "root"}@${HOST}`, ...command], {
      input: opts.input,
      timeoutMs: opts.timeoutMs,
    });

  beforeAll(async () => {
    gw = gateway();
    port = await gw.listen();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("runs a command: separate stdout and stderr, exit status passed through", async () => {
    const r = await ssh(keys.good, ["echo out; echo err >&2; exit 3"]);
    expect(r).toMatchObject({ code: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("lands as root on the deployment's host, in the home directory, with a normal environment", async () => {
    const r = await ssh(keys.good, ['hostname; id -un; pwd; echo "$HOME $USER $SHELL"; tty || true']);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toEqual(["web01", "root", "/root", "/root root /bin/bash", "not a tty", ""]);
    expect(resolveCalls.some((call) => call.user === "root" && call.blob.equals(keys.good.blob) && call.algo === "ssh-ed25519")).toBe(true);
  });

  it("passes stdin through and ends it at the client's end of file", async () => {
    const r = await ssh(keys.good, ["tr a-z A-Z; echo done >&2"], { input: "hello gateway\n" });
    expect(r).toMatchObject({ code: 0, stdout: "HELLO GATEWAY\n", stderr: "done\n" });
  });

  it("hands the ssh user name to resolve and accepts only allowed environment variables", async () => {
    const r = await ssh(keys.good, ['echo "[$LC_FAULTLINE][$EVIL]"'], { user: "d-1234", extra: ["-o", "SetEnv=LC_FAULTLINE=yes EVIL=1"] });
    expect(r).toMatchObject({ code: 0, stdout: "[yes][]\n" });
    expect(resolveCalls.some((call) => call.user === "d-1234")).toBe(true);
  });

  it("gives a PTY when asked for one with a command (ssh -t)", async () => {
    const r = await ssh(keys.good, ["tty; exit 4"], { extra: ["-tt"] });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^\/dev\/pts\/\d+\r\n/);
  });

  it("interactive shell in tmux: prompt, command, resize, Ctrl-C, exit status", async () => {
    const t = createTmux(`${run}-tmux`);
    try {
      const cmd = ["ssh", "-tt", ...clientOptions(keys.good), "-p", String(port), `root@${HOST}`].join(" ");
      await t.start("s", `${cmd}; echo EXIT=$?; sleep 60`, 120, 40);
      await waitFor("the prompt", async () => (await t.capture("s")).includes(PROMPT.trim()));
      await t.keys("s", "echo hello-$((6 * 7)); stty size", "Enter");
      await waitFor("the command's output", async () => /hello-42\n40 120/.test(await t.capture("s")));
      await t.resize("s", 100, 30);
      await new Promise((r) => setTimeout(r, 300));
      await t.keys("s", "clear; stty size", "Enter");
      await waitFor("the new size", async () => /^30 100$/m.test(await t.capture("s")));
      await t.keys("s", "sleep 100", "Enter");
      await waitFor("sleep to run", () => running("^sleep 100$"));
      await t.keys("s", "C-c");
      await waitFor("sleep to be interrupted", async () => !(await running("^sleep 100$")));
      await t.keys("s", "echo still-$((40 + 2))", "Enter");
      await waitFor("the shell to survive Ctrl-C", async () => (await t.capture("s")).includes("still-42"));
      await t.keys("s", "exit 5", "Enter");
      await waitFor("the session to end", async () => (await t.capture("s")).includes("EXIT="));
      expect(await t.capture("s")).toContain("EXIT=5");
    } finally {
      await t.kill();
    }
  });

  it("refuses a key nobody registered (exit 255) and runs nothing", async () => {
    const marker = `/tmp/pwned-${run}`;
    const r = await ssh(keys.wrong, [`touch ${marker}`], { extra: INFO });
    expect(r.code).toBe(255);
    expect(r.stderr).toContain("Permission denied (publickey)");
    expect(r.stderr).toContain(MESSAGES.noDeployment);
    expect((await sh(`test -e ${marker}`)).exitCode).toBe(1);
  });

  it("refuses a key with no running deployment, and says why", async () => {
    const r = await ssh(keys.orphan, ["true"], { extra: INFO });
    expect(r.code).toBe(255);
    expect(r.stderr).toContain(MESSAGES.noDeployment);
    const pending = await ssh(keys.pending, ["true"], { extra: INFO });
    // Without banners (LogLevel below INFO, or -q) the refusal is still a refusal.
    expect((await ssh(keys.orphan, ["true"])).stderr.trim()).toBe("root@127.0.0.1: Permission denied (publickey).");
    expect(pending.code).toBe(255);
    expect(pending.stderr).toContain("Your deployment is still being set up");
  });

  it("copies a file in and out with scp (sftp protocol) byte for byte", async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const local = join(dir, "payload.bin");
    writeFileSync(local, data);
    const scp = (from: string, to: string) => runClient("scp", [...clientOptions(keys.good), "-P", String(port), from, to]);
    const up = await scp(local, `root@${HOST}:/tmp/payload.bin`);
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    expect((await sh("stat -c %s /tmp/payload.bin")).stdout.trim()).toBe(String(data.length));
    const back = join(dir, "payload.back");
    const down = await scp(`root@${HOST}:/tmp/payload.bin`, back);
    expect(down.code).toBe(0);
    expect(readFileSync(back).equals(data)).toBe(true);
    // A relative path lands in the home directory, as with sshd.
    expect((await scp(local, `root@${HOST}:rel.bin`)).code).toBe(0);
    expect((await sh("stat -c %s /root/rel.bin")).stdout.trim()).toBe(String(data.length));
  });

  it("a fast command and a slow reader do not pile up in the gateway's memory", async () => {
    const bytes = 200_000_000;
    const child = spawn("ssh", [...clientOptions(keys.good), "-p", String(port), `root@${HOST}`, `head -c ${bytes} /dev/zero`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    const before = process.memoryUsage().rss;
    let peak = before;
    for (let i = 0; i < 15; i++) {
      await new Promise((r) => setTimeout(r, 200));
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    let received = 0;
    child.stdout.on("data", (chunk: Buffer) => (received += chunk.length));
    const code = await exited;
    console.log(`[gateway] slow reader: gateway memory grew ${((peak - before) / 1e6).toFixed(1)} MB while the client read nothing for 3 s`);
    expect(code).toBe(0);
    expect(received).toBe(bytes);
    expect(peak - before).toBeLessThan(150e6);
  });

  it("a command that leaves a service running returns at once; the service keeps running", async () => {
    // sleep 1078 keeps the command's output open (sshd would wait for it); the gateway ends the
    // channel once the command itself has exited and the output has gone quiet.
    const r = await ssh(keys.good, ["nohup sleep 1077 >/dev/null 2>&1 & sleep 1078 & echo started"]);
    expect(r).toMatchObject({ code: 0, stdout: "started\n" });
    expect(r.ms).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await running("^sleep 1077$")).toBe(true);
    await sh("pkill -f '^sleep 107[78]$' || true");
  });

  it("refuses port forwarding both ways (the gateway runs on the host: no way around the isolation)", async () => {
    // -W asks the gateway to open a TCP connection (direct-tcpip) to an address of the host.
    const w = await ssh(keys.good, [], { extra: ["-W", `127.0.0.1:${port}`] });
    expect(w.code).toBe(255);
    expect(w.stdout).toBe("");
    const remote = await ssh(keys.good, ["echo should-not-run"], { extra: ["-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9"] });
    expect(remote.code).toBe(255);
    expect(remote.stdout).toBe("");
  });

  it("sftp ls works", async () => {
    await sh("mkdir -p /srv/share && echo hi > /srv/share/hello.txt");
    const r = await runClient("sftp", [...clientOptions(keys.good), "-P", String(port), "-b", "-", `root@${HOST}`], { input: "cd /srv/share\nls -l\npwd\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hello\.txt/);
    expect(r.stdout).toContain("Remote working directory: /srv/share");
  });

  it("kills what a connection started when the client is killed (kill -9), with and without a PTY", async () => {
    for (const [flag, seconds] of [
      ["-tt", 1001],
      ["-T", 1002],
    ] as const) {
      const client = startClient("ssh", [flag, ...clientOptions(keys.good), "-p", String(port), `root@${HOST}`, `sleep ${seconds}`]);
      await waitFor(`sleep ${seconds} to run`, () => running(`^sleep ${seconds}$`));
      client.child.kill("SIGKILL");
      await client.exited;
      const t0 = Date.now();
      await waitFor(`sleep ${seconds} to be gone`, async () => !(await running(`^sleep ${seconds}$`)), 5000);
      console.log(`[gateway] ${flag}: process gone ${Date.now() - t0} ms after the client was killed`);
    }
  });

  it("closeDeployment() ends the deployment's open sessions and their processes", async () => {
    const client = startClient("ssh", [...clientOptions(keys.good), "-p", String(port), `root@${HOST}`, "sleep 999; echo finished"]);
    await waitFor("sleep 999 to run", () => running("^sleep 999$"));
    gw.closeDeployment("some-other-deployment");
    await new Promise((r) => setTimeout(r, 500));
    expect(client.child.exitCode).toBeNull();
    expect(gw.stats().byDeployment[deploymentId]).toBe(1);
    gw.closeDeployment(deploymentId);
    const exit = await Promise.race([client.exited, new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    expect(exit).not.toBeNull();
    expect(exit!.code).toBe(255);
    expect(client.stdout).not.toContain("finished");
    expect(client.stderr).toContain(MESSAGES.ended);
    await waitFor("sleep 999 to be gone", async () => !(await running("^sleep 999$")), 5000);
    await waitFor("no connection left", () => gw.stats().connections === 0, 3000);
  });

  it("a missing home directory does not lock the user out (sshd's message, then /)", async () => {
    const r = await ssh(keys.homeless, ["pwd; cat"], { input: "kept input\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("/\nkept input\n");
    expect(r.stderr).toContain("Could not chdir to home directory /nonexistent-home");
  });

  it("logs one line per connection with user, deployment, remote address and duration", async () => {
    const before = logLines.length;
    await ssh(keys.good, ["true"], { user: "root" });
    await waitFor("the log line", () => logLines.slice(before).find((l) => l.startsWith("ssh: connection ")));
    const line = logLines.slice(before).find((l) => l.startsWith("ssh: connection "))!;
    expect(line).toMatch(new RegExp(`user=root deployment=${deploymentId} host=web01 remote=127\\.0\\.0\\.1:\\d+ duration=\\d+\\.\\ds auth=ok sessions=1`));
  });

  it("measures connection-to-prompt latency", async () => {
    const prompt: number[] = [];
    const command: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const client = startClient("ssh", ["-tt", ...clientOptions(keys.good), "-p", String(port), `root@${HOST}`]);
      await waitFor("the prompt", () => client.stdout.includes(PROMPT), 10_000, 2);
      prompt.push(performance.now() - t0);
      client.child.stdin!.write("exit\n");
      await client.exited;
      command.push((await ssh(keys.good, ["true"])).ms);
    }
    const fmt = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms (min ${s[0]!.toFixed(0)}, max ${s.at(-1)!.toFixed(0)})`;
    };
    console.log(`[gateway] connection → shell prompt over ${prompt.length} runs: ${fmt(prompt)}`);
    console.log(`[gateway] ssh host true (whole command) over ${command.length} runs: ${fmt(command)}`);
    expect(
      percentile(
        [...prompt].sort((a, b) => a - b),
        50,
      ),
    ).toBeLessThan(3000);
  });
});

describe("ssh gateway: protocol-level refusals (ssh2 client)", () => {
  let gw: Gateway;
  let port: number;
  beforeAll(async () => {
    gw = gateway();
    port = await gw.listen();
  });
  afterAll(async () => {
    await gw?.close();
  });

  function connect(config: Partial<ssh2.ConnectConfig>): Promise<{ client: ssh2.Client; error?: Error; banners: string[] }> {
    return new Promise((r) => {
      const client = new ssh2.Client();
      const banners: string[] = [];
      client.on("banner", (m: string) => banners.push(m));
      client.on("ready", () => r({ client, banners }));
      client.on("error", (error) => r({ client, error, banners }));
      client.connect({ host: HOST, port, username: "root", readyTimeout: 10_000, ...config });
    });
  }

  it("refuses passwords and keyboard-interactive", async () => {
    const pw = await connect({ password: "root", tryKeyboard: true });
    expect(pw.error?.message).toMatch(/authentication methods failed/);
    pw.client.end();
  });

  it("refuses a client that offers a registered public key but cannot sign with it", async () => {
    const pub = ssh2.utils.parseKey(keys.good.line);
    if (pub instanceof Error || Array.isArray(pub)) throw new Error("parse");
    class ForgingAgent extends ssh2.BaseAgent {
      getIdentities(cb: (err: Error | undefined, keys?: ssh2.ParsedKey[]) => void) {
        cb(undefined, [pub as ssh2.ParsedKey]);
      }
      sign(_key: unknown, _data: Buffer, options: unknown, cb?: (err: Error | undefined, sig?: Buffer) => void) {
        const callback = (typeof options === "function" ? options : cb) as (err: Error | undefined, sig?: Buffer) => void;
        callback(undefined, randomBytes(64));
      }
    }
    const before = logLines.length;
    const checks = gw.stats().signatureChecks;
    const forged = await connect({ agent: new ForgingAgent() as unknown as ssh2.BaseAgent });
    expect(forged.error?.message).toMatch(/authentication methods failed/);
    forged.client.end();
    expect(logLines.slice(before).some((l) => l.includes("bad signature"))).toBe(true);
    expect(gw.stats().signatureChecks).toBe(checks + 1);
  });

  it("a forged signature costs the same whatever the key's state: one verify, no lookup, the generic refusal", async () => {
    // The lookup came first, so a forger's attempt cost one query for an unknown key, two for a
    // registered one and a verify on top for a key whose owner had a deployment: timing told
    // "registered?" and "deployment running?". Now only a valid signature is looked up.
    for (const key of [keys.wrong, keys.orphan, keys.pending, keys.good]) {
      const checks = gw.stats().signatureChecks;
      const calls = resolveCalls.length;
      const r = await connect({ agent: new SigningAgent(key, { forge: true }), username: "stranger" });
      expect(r.error?.message).toMatch(/authentication methods failed/);
      r.client.end();
      expect(r.banners.join("")).toContain(MESSAGES.noDeployment);
      expect(resolveCalls.length, "looked up").toBe(calls);
      expect(gw.stats().signatureChecks, "verified").toBe(checks + 1);
    }
    // The holder of a key, signing for real, is looked up and let in (or told why not).
    const calls = resolveCalls.length;
    const ok = await connect({ agent: new SigningAgent(keys.good) });
    expect(ok.error).toBeUndefined();
    ok.client.end();
    const orphan = await connect({ agent: new SigningAgent(keys.orphan) });
    expect(orphan.error?.message).toMatch(/authentication methods failed/);
    orphan.client.end();
    expect(resolveCalls.length).toBe(calls + 2);
  });

  it("answers the unsigned query the same whatever the key's state, and tells the state only after a valid signature", async () => {
    // The unsigned round used to tell strangers whether a key's owner had a deployment.
    const calls = resolveCalls.length;
    for (const key of [keys.wrong, keys.orphan, keys.pending, keys.good]) {
      const agent = new SigningAgent(key, { refuseToSign: true });
      const r = await connect({ agent });
      expect(r.error).toBeDefined();
      r.client.end();
      // The query was accepted (the client was asked to sign) for every key alike.
      expect(agent.asked).toBe(1);
    }
    expect(resolveCalls.length).toBe(calls);

    // A forged signature for a key whose owner has a deployment being set up learns nothing of
    // it: the generic refusal, as for an unknown key. The owner, signing for real, is told.
    const forged = await connect({ agent: new SigningAgent(keys.pending, { forge: true }) });
    forged.client.end();
    expect(forged.banners.join("")).toContain(MESSAGES.noDeployment);
    expect(forged.banners.join("")).not.toContain("still being set up");
    const owner = await connect({ agent: new SigningAgent(keys.pending) });
    owner.client.end();
    expect(owner.error).toBeDefined();
    expect(owner.banners.join("")).toContain("Your deployment is still being set up");
  });

  it("refuses an offered RSA key with a huge public exponent without looking at it further", async () => {
    const calls = resolveCalls.length;
    const checks = gw.stats().signatureChecks;
    const crafted = craftedRsaPublicKey(3072, 3064);
    const agent = new SigningAgent({ line: crafted }, { forge: true });
    const r = await connect({ agent });
    expect(r.error?.message).toMatch(/authentication methods failed/);
    r.client.end();
    expect(agent.asked).toBe(0); // not even the unsigned query is accepted
    expect(resolveCalls.length).toBe(calls);
    expect(gw.stats().signatureChecks).toBe(checks);
  });

  it("survives garbage, clients vanishing mid-authentication and a failing resolve", async () => {
    const send = (bytes: Buffer, holdMs = 200) =>
      new Promise<void>((r) => {
        const socket = createConnection({ host: HOST, port });
        socket.on("error", () => {});
        socket.on("connect", () => {
          socket.write(bytes);
          setTimeout(() => {
            socket.destroy();
            r();
          }, holdMs);
        });
      });
    await send(randomBytes(4096));
    await send(Buffer.concat([Buffer.from("SSH-2.0-OpenSSH_9.2\r\n"), randomBytes(8192)]));
    await send(Buffer.from("SSH-2.0-x\r\n" + "A".repeat(70_000)));
    await send(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    // A client that leaves while resolve() is still thinking.
    const slow = new ssh2.Client();
    slow.on("error", () => {});
    slow.connect({ host: HOST, port, username: "slow", privateKey: readFileSync(keys.good.path) });
    await new Promise((r) => setTimeout(r, 150));
    (slow as unknown as { _sock: import("node:net").Socket })._sock.destroy();
    await new Promise((r) => setTimeout(r, 500));
    // resolve() throwing is a refusal, not a crash.
    const broken = await connect({ username: "broken", privateKey: readFileSync(keys.good.path) });
    expect(broken.error?.message).toMatch(/authentication methods failed/);
    expect(logLines.some((l) => l.startsWith("ERROR ssh: resolve failed") && l.includes("database unavailable"))).toBe(true);
    // A user name cannot forge log lines.
    const before = logLines.length;
    const forger = await connect({ username: "x\n2026-01-01 INFO ssh: forged", password: "x" });
    forger.client.end();
    const line = await waitFor("its log line", () => logLines.slice(before).find((l) => l.startsWith('ssh: connection user="x')));
    expect(line).not.toContain("\n");
    expect(line).toContain('user="x\\n2026-01-01 INFO ssh: forged"');
    // Still serving.
    const ok = await connect({ privateKey: readFileSync(keys.good.path) });
    expect(ok.error).toBeUndefined();
    ok.client.end();
    await waitFor("connections to be gone", () => gw.stats().connections === 0, 3000);
  });

  it("forwards a signal request to the command's processes", async () => {
    const { client, error } = await connect({ privateKey: readFileSync(keys.good.path) });
    expect(error).toBeUndefined();
    const result = await new Promise<{ out: string; code: number | null }>((r, reject) => {
      client.exec("trap 'echo got-term; exit 7' TERM; echo ready; sleep 30 & wait", (err, stream) => {
        if (err) return reject(err);
        let out = "";
        let code: number | null = null;
        stream.on("data", (d: Buffer) => {
          out += d;
          if (out.includes("ready\n") && !out.includes("sent")) {
            out += "sent\n";
            setTimeout(() => stream.signal("TERM"), 200);
          }
        });
        stream.on("exit", (c: number) => (code = c));
        stream.on("close", () => r({ out, code }));
      });
    });
    client.end();
    expect(result.out).toContain("got-term");
    expect(result.code).toBe(7);
  });
});

describe("ssh gateway: bounded requests after authentication (ssh2 client)", () => {
  // The runtime is the real one, wrapped to count the engine calls the gateway makes.
  let gw: Gateway;
  let port: number;
  const calls = { resize: 0, signal: 0, exec: 0 };
  beforeAll(async () => {
    const counting: Runtime = Object.assign(Object.create(rt) as Runtime, {
      exec: async (id: string, opts: import("#server/runtime/types.ts").ExecOptions) => {
        calls.exec++;
        const e = await rt.exec(id, opts);
        return new Proxy(e, {
          get(t, p) {
            if (p === "resize") return (cols: number, rows: number) => (calls.resize++, t.resize(cols, rows));
            if (p === "signal") return (sig?: NodeJS.Signals) => (sig !== "SIGHUP" && sig !== "SIGKILL" && calls.signal++, t.signal(sig));
            const v = Reflect.get(t, p);
            return typeof v === "function" ? v.bind(t) : v;
          },
        });
      },
    });
    gw = gateway({ runtime: counting });
    port = await gw.listen();
  });
  afterAll(async () => {
    await gw?.close();
  });

  const connect = () =>
    new Promise<ssh2.Client>((r, reject) => {
      const client = new ssh2.Client();
      client.on("ready", () => r(client));
      client.on("error", reject);
      client.connect({ host: HOST, port, username: "root", privateKey: readFileSync(keys.good.path), readyTimeout: 10_000 });
    });
  const exec = (client: ssh2.Client, command: string, opts: ssh2.ExecOptions = {}) =>
    new Promise<{ stream: ssh2.ClientChannel; done: Promise<{ out: string; code: number | null }> }>((r, reject) =>
      client.exec(command, opts, (err, stream) => {
        if (err) return reject(err);
        let out = "";
        let code: number | null = null;
        stream.on("data", (d: Buffer) => (out += d));
        stream.stderr.on("data", (d: Buffer) => (out += d));
        stream.on("exit", (c: number) => (code = c));
        r({ stream, done: new Promise((done) => stream.on("close", () => done({ out, code }))) });
      }),
    );

  it("1000 env requests do not grow a session's environment past 32 entries and 4 KB", async () => {
    const client = await connect();
    try {
      const env: Record<string, string> = {};
      const name = (i: number) =>
        `LC_${i
          .toString(26)
          .split("")
          .map((d) => String.fromCharCode(65 + parseInt(d, 26)))
          .join("")}X`;
      for (let i = 0; i < 1000; i++) env[name(i)] = "v".repeat(i < 10 ? 8 : 200);
      env[`LC_${"L".repeat(100)}`] = "long-name";
      const { done } = await exec(client, "env | grep -c '^LC_'; env | grep '^LC_' | wc -c; env | grep -c LLLLLLLL", { env });
      const { out } = await done;
      const [count, bytes, long] = out.trim().split("\n").map(Number);
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(32);
      expect(bytes).toBeLessThanOrEqual(4096 + 2 * 32); // "=" and newline per entry
      expect(long).toBe(0);
    } finally {
      client.end();
    }
  });

  it("a flood of signal and window-change requests reaches the engine a bounded number of times; the last size wins", async () => {
    const client = await connect();
    try {
      const before = { ...calls };
      const { stream, done } = await exec(client, "trap '' USR1; sleep 2; stty size", { pty: { rows: 24, cols: 80, term: "xterm" } });
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      for (let i = 0; i < 500; i++) {
        stream.signal("USR1");
        stream.setWindow(20 + (i % 50), 60 + (i % 50), 0, 0);
      }
      stream.setWindow(33, 111, 0, 0);
      const { out, code } = await done;
      const seconds = (Date.now() - t0) / 1000;
      expect(code).toBe(0);
      expect(out.trim().split("\n").at(-1)!.trim()).toBe("33 111");
      const signals = calls.signal - before.signal;
      const resizes = calls.resize - before.resize;
      // Buckets: signals 8 then 2/s; resizes 4 then 4/s (and coalesced over 100 ms).
      expect(signals).toBeGreaterThan(0);
      expect(signals).toBeLessThanOrEqual(8 + Math.ceil(2 * seconds) + 1);
      expect(resizes).toBeGreaterThan(0);
      expect(resizes).toBeLessThanOrEqual(4 + Math.ceil(4 * seconds) + 1);
      console.log(`[gateway] 500 signals + 500 window-changes in ${seconds.toFixed(1)} s reached the engine as ${signals} signals and ${resizes} resizes`);
    } finally {
      client.end();
    }
  });

  it("a command asked for while its deployment ends gets the reason, and nothing runs", async () => {
    // A reset or the end of a deployment can land between a client's authentication and its
    // channel request (OpenSSH asks for the channel right after): that request is answered with
    // the message the open channels got, not an exec in a container on its way out.
    const client = await connect();
    try {
      const before = calls.exec;
      gw.closeDeployment(deploymentId);
      const { done } = await exec(client, "echo ran");
      const { out } = await done;
      expect(out).toContain(MESSAGES.ended);
      expect(out).not.toContain("ran");
      expect(calls.exec - before).toBe(0);
    } finally {
      client.end();
    }
  });

  it("opens at most 4 channels per connection", async () => {
    const client = await connect();
    try {
      const open = await Promise.allSettled(Array.from({ length: 5 }, () => exec(client, "sleep 2")));
      expect(open.filter((o) => o.status === "fulfilled")).toHaveLength(4);
      expect(open.filter((o) => o.status === "rejected")).toHaveLength(1);
    } finally {
      client.end();
    }
  });
});

/** An agent holding one key: signs with its private key (when it has the file), counts how often
 *  it was asked to sign (= the server accepted the unsigned query). */
class SigningAgent extends ssh2.BaseAgent {
  asked = 0;
  constructor(
    private readonly key: { line: string; path?: string },
    private readonly opts: { refuseToSign?: boolean; forge?: boolean } = {},
  ) {
    super();
  }
  getIdentities(cb: (err: Error | undefined, keys?: ssh2.ParsedKey[]) => void) {
    const pub = ssh2.utils.parseKey(this.key.line);
    if (pub instanceof Error || Array.isArray(pub)) return cb(pub instanceof Error ? pub : new Error("parse"));
    cb(undefined, [pub]);
  }
  sign(_key: unknown, data: Buffer, options: unknown, cb?: (err: Error | undefined, sig?: Buffer) => void) {
    const callback = (typeof options === "function" ? options : cb) as (err: Error | undefined, sig?: Buffer) => void;
    const hash = typeof options === "object" && options ? (options as { hash?: string }).hash : undefined;
    this.asked++;
    if (this.opts.refuseToSign) return callback(new Error("not signing"));
    if (this.opts.forge || !this.key.path) return callback(undefined, randomBytes(64));
    const priv = ssh2.utils.parseKey(readFileSync(this.key.path));
    if (priv instanceof Error || Array.isArray(priv)) return callback(new Error("parse"));
    const sig = priv.sign(data, hash);
    return sig instanceof Error ? callback(sig) : callback(undefined, sig);
  }
}

describe("ssh gateway: host key, limits and time-outs", () => {
  it("keeps its host key (0600) across restarts: a known_hosts entry stays valid", async () => {
    const keyPath = join(dir, "restart", "host_key");
    const known = join(dir, "known_hosts");
    const strict = (p: number, mode: string) =>
      runClient("ssh", [
        "-i",
        keys.good.path,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "IdentityAgent=none",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        "-o",
        `StrictHostKeyChecking=${mode}`,
        "-o",
        `UserKnownHostsFile=${known}`,
        "-p",
        String(p),
        `root@${HOST}`,
        "echo in",
      ]);
    const first = gateway({ hostKeyPath: keyPath });
    const port = await first.listen();
    const fingerprint = first.hostKeyFingerprint;
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect((await strict(port, "accept-new")).stdout).toBe("in\n");
    await first.close();

    const second = gateway({ hostKeyPath: keyPath, port });
    expect(await second.listen()).toBe(port);
    try {
      expect(second.hostKeyFingerprint).toBe(fingerprint);
      const again = await strict(port, "yes");
      expect(again.stderr).toBe("");
      expect(again.stdout).toBe("in\n");
      const scan = await runClient("ssh-keygen", ["-l", "-f", keyPath]);
      expect(scan.stdout).toContain(fingerprint);
    } finally {
      await second.close();
    }
  });

  it("drops connections that do not authenticate in time", async () => {
    const gw = gateway({ authTimeoutMs: 1000 });
    const port = await gw.listen();
    try {
      const t0 = Date.now();
      const closedAfter = await new Promise<number>((r) => {
        const socket = createConnection({ host: HOST, port });
        socket.on("data", () => {});
        socket.on("error", () => {});
        socket.on("close", () => r(Date.now() - t0));
      });
      expect(closedAfter).toBeGreaterThanOrEqual(900);
      expect(closedAfter).toBeLessThan(3000);
      await waitFor("the gateway to forget it", () => gw.stats().connections === 0, 2000);
    } finally {
      await gw.close();
    }
  });

  it("limits connections per user and in total, with a clear refusal", async () => {
    const gw = gateway({ maxConnectionsPerUser: 1, maxConnections: 2 });
    const port = await gw.listen();
    const args = (key: ClientKey, cmd: string) => [...clientOptions(key, INFO), "-p", String(port), `root@${HOST}`, cmd];
    try {
      const holder = startClient("ssh", args(keys.good, "sleep 1101"));
      await waitFor("the first connection", () => running("^sleep 1101$"));
      const second = await runClient("ssh", args(keys.good, "echo second"));
      expect(second.code).toBe(255);
      expect(second.stdout).toBe("");
      expect(second.stderr).toContain("You already have 1 open SSH connection");

      // Fill the gateway: two idle connections, then a third is told the gateway is busy.
      const idle = [createConnection({ host: HOST, port }), createConnection({ host: HOST, port })];
      for (const s of idle) s.on("error", () => {});
      holder.child.kill("SIGKILL");
      await holder.exited;
      await waitFor("two connections", () => gw.stats().connections === 2, 3000);
      const busy = await runClient("ssh", args(keys.good, "echo busy"));
      expect(busy.code).toBe(255);
      expect(busy.stderr).toContain(MESSAGES.busy);
      for (const s of idle) s.destroy();
      await waitFor("room again", () => gw.stats().connections === 0, 3000);
      expect((await runClient("ssh", args(keys.good, "echo room"))).stdout).toBe("room\n");
    } finally {
      await gw.close();
    }
  });

  it("caps connections per address: one address holding its share is refused, another still gets in", async () => {
    // 288 sockets from one address used to fill the whole gateway.
    const gw = gateway({ maxUnauthenticatedPerAddress: 3, maxConnectionsPerAddress: 4 });
    const port = await gw.listen();
    const sockets: import("node:net").Socket[] = [];
    /** A raw TCP client from `from`; resolves with what the server sent first, or "closed". */
    const probe = (from: string) =>
      new Promise<string>((r) => {
        const socket = createConnection({ host: HOST, port, localAddress: from });
        sockets.push(socket);
        socket.on("error", () => r("closed"));
        socket.once("data", (d) => r(d.toString("latin1").split("\r\n")[0]!));
        socket.once("close", () => r("closed"));
      });
    const sshFrom = (from: string, cmd: string) => runClient("ssh", [...clientOptions(keys.good, ["-b", from]), "-p", String(port), `root@${HOST}`, cmd]);
    try {
      // Three unauthenticated connections from 127.0.0.1: a fourth is closed at once, a real
      // client from there too; 127.0.0.2 is not affected.
      for (let i = 0; i < 3; i++) expect(await probe("127.0.0.1")).toMatch(/^SSH-2.0-faultline/);
      expect(await probe("127.0.0.1")).toBe("closed");
      expect((await sshFrom("127.0.0.1", "echo in")).code).toBe(255);
      expect(await probe("127.0.0.2")).toMatch(/^SSH-2.0-faultline/);
      expect((await sshFrom("127.0.0.2", "echo in")).stdout).toBe("in\n");

      // Authenticated connections count towards the address's total (4), not its unauthenticated share.
      sockets.splice(0).forEach((x) => x.destroy());
      await waitFor("the raw sockets to be gone", () => gw.stats().connections === 0, 3000);
      const holders = [startClient("ssh", [...clientOptions(keys.good), "-p", String(port), `root@${HOST}`, "sleep 1102"])];
      await waitFor("one authenticated connection", () => gw.stats().byDeployment[deploymentId] === 1);
      for (let i = 0; i < 3; i++) expect(await probe("127.0.0.1")).toMatch(/^SSH-2.0-faultline/);
      expect(await probe("127.0.0.1")).toBe("closed"); // 1 + 3 = 4 from this address
      expect(await probe("127.0.0.2")).toMatch(/^SSH-2.0-faultline/);
      for (const h of holders) h.child.kill("SIGKILL");
    } finally {
      sockets.forEach((x) => x.destroy());
      await gw.close();
    }
  });

  it("offers only cheap key exchanges (curve25519, group14/16; no group18 or group exchange)", async () => {
    const gw = gateway();
    const port = await gw.listen();
    try {
      const offered = await new Promise<string>((r) => {
        const client = new ssh2.Client();
        client.on("error", () => {});
        client.on("handshake", () => {});
        let kexList = "";
        client.on("ready", () => client.end());
        client.on("close", () => r(kexList));
        client.connect({
          host: HOST,
          port,
          username: "root",
          privateKey: readFileSync(keys.good.path),
          debug: (m: string) => {
            const hit = /Remote: KEX algorithms?: (.*)$/i.exec(m) ?? /Handshake: \(remote\) KEX method: (.*)$/i.exec(m);
            if (hit && !kexList) kexList = hit[1]!;
          },
        });
      });
      expect(offered).toContain("curve25519-sha256");
      expect(offered).not.toMatch(/group18|group-exchange|group1-|group14-sha1|ecdh-sha2/);
      for (const kex of ["diffie-hellman-group18-sha512", "diffie-hellman-group-exchange-sha256"]) {
        const r = await runClient("ssh", [...clientOptions(keys.good, ["-o", `KexAlgorithms=${kex}`, ...INFO]), "-p", String(port), `root@${HOST}`, "true"]);
        expect(r.code).toBe(255);
        expect(r.stderr).toMatch(/no matching key exchange method/);
      }
      const g16 = await runClient("ssh", [
        ...clientOptions(keys.good, ["-o", "KexAlgorithms=diffie-hellman-group16-sha512"]),
        "-p",
        String(port),
        `root@${HOST}`,
        "echo g16",
      ]);
      expect(g16.stdout).toBe("g16\n");
    } finally {
      await gw.close();
    }
  });
});
