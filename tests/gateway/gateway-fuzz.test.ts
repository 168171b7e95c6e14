// Nothing a stranger (or a player) sends over SSH takes faultline down (decision
// 015). The real server (server.ts's startServer: API, gateway, recorder, worker) with the
// local dockerd and a real deployment. After authenticating, a client sends malformed and
// unexpected packets through ssh2's own packet writer (truncated requests, lengths past the
// packet, unknown channels and message types, a garbage re-key), a pty-req with 2^32-1 columns
// and rows and a 30 kB TERM, and floods of window-changes. After each: the gateway lets a good
// client in and runs a command, /healthz answers, and the misbehaving connection is gone (none
// left held). Credentials changes (password, SSH key) end the account's SSH connections.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "#server/gateway/messages.ts";
import { HOST, startTestServer, waitForStatus, type Player } from "../support/server.ts";
import { waitFor } from "./support.ts";

const CHALLENGE = "nginx-broken-config";
const U32_MAX = 2 ** 32 - 1;
const require = createRequire(import.meta.url);
const { sendPacket } = require("ssh2/lib/protocol/utils.js") as { sendPacket: (proto: unknown, packet: Buffer) => boolean };

let server: Awaited<ReturnType<typeof startTestServer>>;
let player: Player;
let deploymentId: string;

async function deploy(p: Player) {
  const start = await server.api.call("POST", `/challenges/${CHALLENGE}/session/start`, { token: p.token, body: {} });
  expect(start.status, JSON.stringify(start.body)).toBe(201);
  const ready = await waitForStatus(server.api, p.token, CHALLENGE, (s) => s === "ready", 120_000);
  return ready.deployment_id as string;
}

beforeAll(async () => {
  // Each malformed-packet case opens a session, and each session is a recording: the player's
  // per-minute allowance of recordings (30 by default) would be spent before the pty test's own.
  server = await startTestServer({ RECORDINGS_PER_MINUTE: "1000" });
  player = await server.player();
  deploymentId = await deploy(player);
}, 180_000);

afterAll(async () => {
  if (server && player) await server.api.call("POST", `/challenges/${CHALLENGE}/session/terminate`, { token: player.token, body: {} });
  await server?.stop();
});

/** An authenticated ssh2 client of `p` (its registered key). */
function connect(p: Player = player): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on("ready", () => resolve(client));
    client.on("error", reject);
    client.connect({ host: HOST, port: server.sshPort, username: CHALLENGE, privateKey: readFileSync(p.key.path), readyTimeout: 20_000 });
  });
}

/** Runs `command` on a fresh, good connection: the gateway still serves. */
async function goodCommand(command = "echo ok") {
  const client = await connect();
  try {
    return await new Promise<string>((resolve, reject) =>
      client.exec(command, (err, stream) => {
        if (err) return reject(err);
        let out = "";
        stream.on("data", (d: Buffer) => (out += d));
        stream.stderr.on("data", () => {});
        stream.on("close", () => resolve(out));
      }),
    );
  } finally {
    client.end();
  }
}

async function stillServing(after: string) {
  expect(await goodCommand(), `a good client after ${after}`).toBe("ok\n");
  const health = await fetch(`${server.api.base}/healthz`, { signal: AbortSignal.timeout(5000) });
  expect([200, 503], `/healthz after ${after}`).toContain(health.status);
  await health.text();
}

/** Writes one packet of `type` with `payload` through the client's own encrypted writer. */
function rawPacket(client: ssh2.Client, type: number, payload: Buffer) {
  const proto = (client as unknown as { _protocol: { _packetRW: { write: { allocStart: number; alloc(n: number): Buffer; finalize(p: Buffer): Buffer } } } })
    ._protocol;
  const w = proto._packetRW.write;
  const start = w.allocStart;
  const packet = w.alloc(1 + payload.length);
  packet[start] = type;
  payload.copy(packet, start + 1);
  sendPacket(proto, w.finalize(packet));
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const str = (s: string | Buffer) => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s as string)]);
const bool = (v: boolean) => Buffer.from([v ? 1 : 0]);

/** A session channel opened on `client`: its stream and the server's id for it. */
function session(client: ssh2.Client): Promise<{ stream: ssh2.ClientChannel; remote: number }> {
  return new Promise((resolve, reject) =>
    client.shell(false, (err, stream) => {
      if (err) return reject(err);
      resolve({ stream, remote: (stream as unknown as { outgoing: { id: number } }).outgoing.id });
    }),
  );
}

describe("the SSH gateway under malformed and hostile packets", () => {
  it("survives each malformed packet after authentication; each bad connection is closed, none held", async () => {
    const baseline = server.gateway!.stats().connections;
    const cases: [name: string, send: (c: ssh2.Client, remote: number) => void][] = [
      ["channel request, truncated", (c) => rawPacket(c, 98, u32(0).subarray(0, 2))],
      [
        "pty-req whose TERM length runs past the packet",
        (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("pty-req"), bool(true), u32(U32_MAX), Buffer.from("xterm")])),
      ],
      ["pty-req with its size fields missing", (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("pty-req"), bool(true), str("xterm")]))],
      ["window-change with no size", (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("window-change"), bool(false)]))],
      ["env whose name length is 2^32-1", (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("env"), bool(true), u32(U32_MAX), Buffer.from("LANG")]))],
      [
        "exec whose command runs past the packet",
        (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("exec"), bool(true), u32(1_000_000), Buffer.from("id")])),
      ],
      ["signal with a 20 kB name", (c, r) => rawPacket(c, 98, Buffer.concat([u32(r), str("signal"), bool(true), str("S".repeat(20_000))]))],
      ["a request on a channel that does not exist", (c) => rawPacket(c, 98, Buffer.concat([u32(12345), str("shell"), bool(true)]))],
      ["data for a channel that does not exist", (c) => rawPacket(c, 94, Buffer.concat([u32(777), str("hello")]))],
      ["data whose length runs past the packet", (c, r) => rawPacket(c, 94, Buffer.concat([u32(r), u32(U32_MAX), Buffer.from("x")]))],
      [
        "window adjust overflowing 2^32, twice",
        (c, r) => (rawPacket(c, 93, Buffer.concat([u32(r), u32(U32_MAX)])), rawPacket(c, 93, Buffer.concat([u32(r), u32(U32_MAX)]))),
      ],
      ["open of a channel type nobody serves", (c) => rawPacket(c, 90, Buffer.concat([str("x11"), u32(9), u32(0), u32(0), str("[")]))],
      [
        "direct-tcpip open with garbage",
        (c) => rawPacket(c, 90, Buffer.concat([str("direct-tcpip"), u32(9), u32(U32_MAX), u32(U32_MAX), str(""), u32(U32_MAX)])),
      ],
      ["open whose type length is 2^32-1", (c) => rawPacket(c, 90, Buffer.concat([u32(U32_MAX), Buffer.from("session")]))],
      [
        "global request tcpip-forward with garbage",
        (c) => rawPacket(c, 80, Buffer.concat([str("tcpip-forward"), bool(true), str("\0".repeat(300)), u32(U32_MAX)])),
      ],
      ["service request after authentication", (c) => rawPacket(c, 5, str("ssh-userauth"))],
      ["authentication request after authentication", (c) => rawPacket(c, 50, Buffer.concat([str("root"), str("ssh-connection"), str("none")]))],
      ["a garbage re-key (KEXINIT)", (c) => rawPacket(c, 20, Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff)))],
      ["an unknown message type", (c) => rawPacket(c, 192, Buffer.alloc(64, 0xff))],
      ["close and EOF of channels that do not exist", (c) => (rawPacket(c, 97, u32(4242)), rawPacket(c, 96, u32(4243)))],
      [
        "success and failure nobody asked for",
        (c, r) => (rawPacket(c, 99, u32(r)), rawPacket(c, 100, u32(r)), rawPacket(c, 81, Buffer.alloc(0)), rawPacket(c, 82, Buffer.alloc(0))),
      ],
      [
        "a 30 kB ignore message and a 30 kB debug message",
        (c) => (rawPacket(c, 2, str("i".repeat(30_000))), rawPacket(c, 4, Buffer.concat([bool(true), str("d".repeat(30_000)), str("")]))),
      ],
      [
        "every message type with random bytes",
        (c) => {
          for (let t = 1; t < 256; t++) rawPacket(c, t, Buffer.from(Array.from({ length: (t * 13) % 90 }, (_, i) => (t * 31 + i * 7) & 0xff)));
        },
      ],
    ];
    for (const [name, send] of cases) {
      const client = await connect();
      client.on("error", () => {});
      const { remote } = await session(client);
      const closed = new Promise<void>((r) => client.once("close", () => r()));
      send(client, remote);
      // Whatever the gateway made of it, the client can leave; then nothing of it stays.
      await Promise.race([closed, new Promise((r) => setTimeout(r, 300))]);
      client.end();
      await closed;
      await stillServing(name);
    }
    await waitFor("every bad connection to be gone", () => server.gateway!.stats().connections <= baseline, 5000);
  }, 120_000);

  it("pty-req with 2^32-1 columns and rows and a 30 kB TERM: clamped to 1000x1000 and a plain TERM, in the shell and its recording", async () => {
    const client = await connect();
    try {
      const out = await new Promise<string>((resolve, reject) =>
        client.exec(
          'stty size; echo "TERM=$TERM"',
          { pty: { cols: U32_MAX, rows: U32_MAX, width: U32_MAX, height: U32_MAX, term: "x".repeat(30_000) } },
          (err, stream) => {
            if (err) return reject(err);
            let text = "";
            stream.on("data", (d: Buffer) => (text += d));
            stream.on("close", () => resolve(text));
          },
        ),
      );
      expect(out).toContain("1000 1000");
      expect(out).toContain("TERM=xterm\r\n");
    } finally {
      client.end();
    }
    const store = server.platform.recordingStore;
    const header = await waitFor(
      "the command's recording",
      async () => {
        for (const row of await store.listByDeployment(deploymentId)) {
          if (row.ended_at === null) continue;
          const head = JSON.parse((await store.open(row.id))!.split("\n")[0]!);
          if (String(head.command ?? "").startsWith("stty size; echo")) return head;
        }
        return null;
      },
      20_000,
    );
    expect(header.width).toBe(1000);
    expect(header.height).toBe(1000);
    expect(header.env.TERM).toBe("xterm");
    await stillServing("a pty-req of 2^32-1");
  }, 60_000);

  it("a flood of 5000 window-changes of every size, 2^32-1 included: the shell stays usable, the size stays within 1..1000", async () => {
    const client = await connect();
    try {
      const out = await new Promise<string>((resolve, reject) =>
        client.exec("sleep 1.5; stty size", { pty: { cols: 80, rows: 24, term: "xterm" } }, (err, stream) => {
          if (err) return reject(err);
          let text = "";
          stream.on("data", (d: Buffer) => (text += d));
          stream.on("close", () => resolve(text));
          for (let i = 0; i < 5000; i++) stream.setWindow(i % 3 ? U32_MAX : i, i % 2 ? U32_MAX : 0, U32_MAX, U32_MAX);
          stream.setWindow(U32_MAX, U32_MAX, 0, 0);
        }),
      );
      expect(out.trim()).toBe("1000 1000");
    } finally {
      client.end();
    }
    await stillServing("5000 window-changes");
  }, 60_000);
});

describe("credentials changes end the account's SSH connections", () => {
  let owner: Player;
  /** The owner's password as it is now (a retried test finds it changed already). */
  let password = "";

  beforeAll(async () => {
    owner = await server.player();
    password = `pw-${owner.username}-long enough`;
    await deploy(owner);
  }, 180_000);

  /** An open shell of `owner`, and what it was told before it closed. */
  async function openShell() {
    const client = await connect(owner);
    client.on("error", () => {});
    const { stream } = await session(client);
    let said = "";
    stream.on("data", (d: Buffer) => (said += d));
    stream.stderr.on("data", (d: Buffer) => (said += d));
    const closed = new Promise<void>((r) => client.once("close", () => r()));
    return { closed, said: () => said, client };
  }

  it("a password change closes them, saying why; the player's others stay", async () => {
    const mine = await openShell();
    const other = await connect(); // the first player's: untouched
    const next = `${password}+`;
    const changed = await server.api.call("PUT", "/users/me/password", { token: owner.token, body: { current_password: password, new_password: next } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    password = next;
    owner = { ...owner, token: changed.body.access_token };
    await Promise.race([mine.closed, new Promise((_, reject) => setTimeout(() => reject(new Error("the SSH connection outlived the password change")), 8000))]);
    expect(mine.said()).toContain(MESSAGES.credentialsChanged);
    expect(
      await new Promise<string>((resolve) =>
        other.exec("echo still", (err, s) => (err ? resolve(String(err)) : (s.on("data", (d: Buffer) => resolve(String(d))), s.stderr.on("data", () => {})))),
      ),
    ).toBe("still\n");
    other.end();
  }, 30_000);

  it("deleting the SSH key closes them", async () => {
    const mine = await openShell();
    const removed = await server.api.call("DELETE", "/users/me/ssh-key", { token: owner.token, body: { current_password: password } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await Promise.race([mine.closed, new Promise((_, reject) => setTimeout(() => reject(new Error("the SSH connection outlived the key's deletion")), 8000))]);
    expect(mine.said()).toContain(MESSAGES.credentialsChanged);
  }, 30_000);
});
