// faultline shipped as a container (docs/decisions/009-container-image.md): the
// repository's Dockerfile built with BASE pointed at a local image (no registry is reachable
// here; tests/support/container-image.ts), run as operators run it (non-root, the engine's socket
// through its group, the host's PID namespace, a volume at /data) against the local engine, a
// real PostgreSQL and a real SMTP server, and one player's journey against it: sign-up, the
// verification link from the mail, the SSH key, a challenge started, the fix through the SSH
// gateway with the OpenSSH client, a graded submission.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { playerPool, prove } from "../../scripts/prove.ts";
import { loadChallenges } from "#server/library/challenges.ts";
import { clientOptions, makeKey, runClient, startClient, waitFor } from "../gateway/support.ts";
import { buildPlatformImage, ensureLocalNodeBase } from "../support/container-image.ts";
import { verificationToken, type MailMessage } from "../support/platform.ts";
import { startPostgres, type TestPostgres } from "../support/postgres.ts";
import { apiAt, HOST, waitForStatus, type Api, type Player } from "../support/server.ts";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp.ts";
import { putSshKey } from "../support/ssh-keys.ts";

const REPO = join(import.meta.dirname, "..", "..");
const IMAGE = "faultline/platform:test";
const CHALLENGE = "nginx-broken-config";
const SOCKET = "/var/run/docker.sock";
const docker = new Docker();

let pg: TestPostgres;
let smtp: SmtpCapture;
let container: Docker.Container | undefined;
let api: Api;
let ports: { http: number; ssh: number };
let work: string;
let player: Player | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function logsOf(c: Docker.Container) {
  const buf = (await c.logs({ stdout: true, stderr: true, tail: 80 }).catch(() => Buffer.from(""))) as Buffer;
  // Non-TTY logs carry an 8-byte frame header per chunk: keep the text.
  return buf.toString("utf8").replace(/[\x00-\x08]/g, "");
}

/** Until the engine reports the container healthy (its HEALTHCHECK), or fails with its log. */
async function waitHealthy(c: Docker.Container, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = (await c.inspect()).State;
    if (s.Health?.Status === "healthy") return;
    if (!s.Running) throw new Error(`the container stopped (exit ${s.ExitCode}):\n${await logsOf(c)}`);
    if (Date.now() > end) throw new Error(`not healthy after ${timeoutMs} ms (${s.Health?.Status}):\n${await logsOf(c)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  // First build on a machine: the base image plus `npm install` and the web build (several
  // minutes); after that the legacy builder reuses every layer up to the changed sources.
  await buildPlatformImage(REPO, IMAGE, await ensureLocalNodeBase(docker));
  pg = await startPostgres();
  smtp = await startSmtpCapture();
  work = mkdtempSync(join(tmpdir(), "faultline-container-"));
  ports = { http: await freePort(), ssh: await freePort() };
  // The host's network: the test's PostgreSQL and SMTP listen on loopback only, and the gateway
  // and web are reached there too (compose.yaml publishes ports instead; nothing else differs).
  container = await docker.createContainer({
    Image: IMAGE,
    name: `faultline-image-test-${process.pid}`,
    Labels: { "faultline.test": "container-image" },
    Env: [
      `DATABASE_URL=${await pg.createDatabase()}`,
      `SMTP_URL=${smtp.url}`,
      `HOST=${HOST}`,
      `PORT=${ports.http}`,
      `SSH_PORT=${ports.ssh}`,
      `PUBLIC_URL=http://${HOST}:${ports.http}`,
      `SSH_HOST=${HOST}`,
      "LOG_LEVEL=info",
    ],
    // The image's own HEALTHCHECK command, probed more often than in production.
    Healthcheck: { Interval: 1_000_000_000, Timeout: 5_000_000_000, Retries: 3, StartPeriod: 60_000_000_000 },
    HostConfig: {
      NetworkMode: "host",
      PidMode: "host",
      GroupAdd: [String(statSync(SOCKET).gid)],
      Binds: [`${SOCKET}:${SOCKET}`],
    },
  });
  await container.start();
  await waitHealthy(container, 120_000);
  api = apiAt(`http://${HOST}:${ports.http}`);
}, 30 * 60_000);

afterAll(async () => {
  await container?.remove({ force: true, v: true }).catch(() => {});
  await smtp?.close();
  await pg?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

// No compose on this machine: the file is checked for what decision 009 says the service needs.
it("compose.yaml runs the image with PostgreSQL, the engine's socket and group, the host's PID namespace and /data", () => {
  const compose = parseYaml(readFileSync(join(REPO, "compose.yaml"), "utf8"));
  const app = compose.services.faultline;
  expect(app.build.context).toBe(".");
  expect(app.pid).toBe("host");
  expect(app.volumes).toEqual(expect.arrayContaining(["faultline-data:/data", `${SOCKET}:${SOCKET}`]));
  expect(app.group_add).toHaveLength(1);
  expect(app.environment.DATABASE_URL).toMatch(/^postgres:\/\/faultline:.*@db:5432\/faultline$/);
  // The gateway advertises the port it listens on: published under the same number.
  expect(app.ports).toContain("${SSH_PORT:-2222}:${SSH_PORT:-2222}");
  expect(app.environment.SSH_PORT).toBe("${SSH_PORT:-2222}");
  expect(compose.services.db.image).toMatch(/^postgres:/);
  expect(app.depends_on.db.condition).toBe("service_healthy");
});

it("runs as a non-root user with its data on a volume, and serves the web", async () => {
  const info = await container!.inspect();
  expect(info.Config.User).toBe("faultline");
  expect(info.Mounts.some((m) => m.Destination === "/data" && m.Type === "volume")).toBe(true);
  const home = await fetch(`http://${HOST}:${ports.http}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain("faultline");
  const docs = await fetch(`http://${HOST}:${ports.http}/docs`);
  expect(docs.status).toBe(200);
  expect(await docs.text()).toContain(`Port ${ports.ssh}`);
});

it("journey: sign-up, verify by mail, SSH key, start, fix over SSH, graded submission", async () => {
  const username = `img${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
  const email = `${username}@example.test`;
  const password = `pw-${username}-long enough`;
  const since = Date.now();
  const reg = await api.call("POST", "/auth/register", { body: { username, email, password } });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const mail = await smtp.waitForMessage(email, 30_000, { since });
  const verified = await api.call("POST", "/auth/verify-email", { body: { token: verificationToken(mail as unknown as MailMessage) } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const login = await api.call("POST", "/auth/login", { body: { username_or_email: username, password } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const key = await makeKey(work, "id_ed25519");
  const put = await putSshKey((method, path, body) => api.call(method, path, { token: login.body.access_token, body }), key.path);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const journeyPlayer: Player = { username, token: login.body.access_token, key };
  player = journeyPlayer;

  // The same routine `npm run challenge -- prove` and the library test use, against the container.
  const server = { api, sshPort: ports.ssh, player: async () => journeyPlayer } as unknown as Parameters<typeof playerPool>[0];
  const challenge = loadChallenges().find((c) => c.id === CHALLENGE)!;
  const steps = [];
  for await (const step of prove(server, playerPool(server, 1), challenge, { fakes: false })) steps.push(step);
  expect(steps.map((s) => [s.step, s.ok, s.ok ? "" : s.detail])).toEqual([
    ["the check refuses the fresh deployment", true, ""],
    ["solution.sh runs through the SSH gateway", true, ""],
    ["the check accepts the fixed deployment", true, ""],
  ]);
  const me = await api.call("GET", "/users/me", { token: journeyPlayer.token });
  expect(me.body.total_points ?? me.body.points).toBeGreaterThan(0);
});

// The reason for `pid: host` (decision 009): a dropped connection hangs up its command, which the
// server finds through the host's /proc and, unprivileged, signals through the engine.
it("a dropped SSH connection ends its command in the deployment (signals from inside a container)", async () => {
  const who = player!;
  const call = (method: string, path: string) => api.call(method, path, { token: who.token, body: {} });
  expect((await call("POST", `/challenges/${CHALLENGE}/session/start`)).status).toBe(201);
  try {
    const ready = await waitForStatus(api, who.token, CHALLENGE, (s) => s === "ready" || s === "failed", 120_000);
    expect(ready.status).toBe("ready");
    const ssh = (command: string): [string, string[]] => ["ssh", [...clientOptions(who.key), "-p", String(ports.ssh), `${CHALLENGE}@${HOST}`, command]];
    const marker = `sleep 4${Math.floor(Math.random() * 1000)}`;
    const pgrep = async () => (await runClient(...ssh(`pgrep -f -x '${marker}' || true`))).stdout.trim();
    const held = startClient(...ssh(marker));
    await waitFor("the command to run", async () => (await pgrep()) !== "", 30_000, 300);
    held.child.kill("SIGKILL");
    await held.exited;
    await waitFor("the command to end after the hang-up", async () => (await pgrep()) === "", 15_000, 300);
  } finally {
    await call("POST", `/challenges/${CHALLENGE}/session/terminate`);
  }
});
