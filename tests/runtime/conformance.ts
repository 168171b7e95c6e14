// The runtime conformance suite: what every driver (Docker now, Kubernetes later) must do, against
// a real engine, no mocks. A driver's test file calls runtimeConformance() with a factory.
// Isolation is only ever tested against listeners of our own (the host's bridge address) and
// containers of our own; the metadata address is only probed from inside a deployment network.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../../server/runtime/exec.ts";
import { LABEL, baseCapabilities } from "../../server/runtime/policy.ts";
import type { ContainerInfo, ContainerSpec, ExecSession, NetworkInfo, Owner, Runtime } from "../../server/runtime/types.ts";

export interface ConformanceTarget {
  runtime: Runtime;
  /** An image with bash, coreutils, procps, iproute2 and netcat (the base image). */
  image: string;
  /** An address of the machine running the engine that containers must not reach (e.g. the
   *  Docker bridge gateway); the suite opens a TCP listener of its own there. */
  hostAddress: string;
  /** How many processes run in the container, counted from outside it. */
  processCount(containerId: string): Promise<number>;
  /** Engine objects (containers, networks, volumes...) still left for a deployment. */
  leftovers(deploymentId: string): Promise<string[]>;
}

const MiB = 1024 * 1024;

export function runtimeConformance(driver: string, factory: () => Promise<ConformanceTarget>) {
  describe(`runtime conformance: ${driver}`, () => {
    let t: ConformanceTarget;
    let rt: Runtime;
    const run = `rc${randomBytes(3).toString("hex")}`;
    const owner = (name: string): Owner => ({ deploymentId: `${run}-${name}`, userId: `user-${name}`, challengeId: "conformance" });

    async function deployment(name: string, spec: Partial<ContainerSpec> = {}): Promise<{ network: NetworkInfo; c: ContainerInfo; owner: Owner }> {
      const o = owner(name);
      const network = await rt.createNetwork(o);
      const c = await rt.createContainer({
        owner: o,
        role: "target",
        image: t.image,
        hostname: "box",
        network: network.name,
        expiresAt: new Date(Date.now() + 10 * 60_000),
        ...spec,
      });
      return { network, c, owner: o };
    }
    const sh = (id: string, script: string, opts: Parameters<typeof runCommand>[3] = {}) => runCommand(rt, id, ["bash", "-c", script], opts);

    beforeAll(async () => {
      t = await factory();
      rt = t.runtime;
      await rt.ping();
    });
    afterAll(async () => {
      if (!rt) return;
      const mine = (await rt.list()).filter((c) => c.owner.deploymentId.startsWith(run));
      const ids = new Set([...mine.map((c) => c.owner.deploymentId), ...(await rt.listNetworks()).map((n) => n.owner.deploymentId).filter((d) => d.startsWith(run))]);
      await Promise.all([...ids].map((d) => rt.removeDeployment(d)));
    });

    describe("lifecycle", () => {
      let d: Awaited<ReturnType<typeof deployment>>;
      beforeAll(async () => {
        d = await deployment("life");
      });

      it("creates and starts a labelled container on the deployment's network", async () => {
        expect(d.c.state).toBe("running");
        expect(d.c.labels).toMatchObject({
          [LABEL.managed]: "1",
          [LABEL.deployment]: d.owner.deploymentId,
          [LABEL.user]: d.owner.userId,
          [LABEL.challenge]: "conformance",
          [LABEL.role]: "target",
        });
        expect(d.c.expiresAt!.getTime()).toBeGreaterThan(Date.now());
        expect(d.c.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
        const again = await rt.inspect(d.c.id);
        expect(again?.owner).toEqual(d.owner);
        const r = await sh(d.c.id, "hostname; id -un; pwd");
        expect(r.stdout.split("\n").slice(0, 2)).toEqual(["box", "root"]);
      });

      it("lists containers and networks by label", async () => {
        const byDeployment = await rt.list({ [LABEL.deployment]: d.owner.deploymentId });
        expect(byDeployment.map((c) => c.id)).toEqual([d.c.id]);
        expect(await rt.list({ [LABEL.deployment]: `${run}-nobody` })).toEqual([]);
        const byUser = await rt.list({ [LABEL.user]: d.owner.userId, [LABEL.role]: "target" });
        expect(byUser.map((c) => c.id)).toContain(d.c.id);
        const nets = await rt.listNetworks({ [LABEL.deployment]: d.owner.deploymentId });
        expect(nets.map((n) => n.name)).toEqual([d.network.name]);
        expect(await rt.inspect("does-not-exist-" + run)).toBeNull();
      });

      it("creating the same deployment network twice returns the existing one", async () => {
        const again = await rt.createNetwork(d.owner);
        expect(again.id).toBe(d.network.id);
      });

      it("exec without TTY: separate stdout and stderr, exit codes, stdin", async () => {
        const r = await sh(d.c.id, "echo out; echo err >&2; exit 3");
        expect(r).toMatchObject({ exitCode: 3, stdout: "out\n", stderr: "err\n", timedOut: false });
        const piped = await runCommand(rt, d.c.id, ["bash", "-c", "tr a-z A-Z; echo done >&2"], { input: "hello stdin\n" });
        expect(piped).toMatchObject({ exitCode: 0, stdout: "HELLO STDIN\n", stderr: "done\n" });
        const env = await runCommand(rt, d.c.id, ["bash", "-c", 'echo "$GREETING from $(pwd)"'], { env: { GREETING: "hi" }, workdir: "/tmp" });
        expect(env.stdout).toBe("hi from /tmp\n");
        const missing = await runCommand(rt, d.c.id, ["/nonexistent"]);
        expect(missing.exitCode).not.toBe(0);
      });

      it("exec round trip is fast", async () => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) times.push((await runCommand(rt, d.c.id, ["true"])).durationMs);
        times.sort((a, b) => a - b);
        console.log(`[${driver}] exec round trip ms: ${times.join(", ")}`);
        expect(times[2]).toBeLessThan(1000);
      });

      it("exec with a TTY: terminal size, resize, Ctrl-C and the exit status", async () => {
        const s = await rt.exec(d.c.id, { command: ["bash", "--norc", "-i"], tty: true, stdin: true, cols: 100, rows: 30, env: { TERM: "xterm", PS1: "$ " } });
        const screen = reader(s);
        s.stdin!.write("stty size; tty\n");
        await screen.waitFor(/30 100\r?\n\/dev\/pts\/\d+/);
        await s.resize(120, 40);
        s.stdin!.write("stty size\n");
        await screen.waitFor(/40 120/);
        s.stdin!.write("sleep 100\n");
        await new Promise((r) => setTimeout(r, 300));
        s.stdin!.write("\x03");
        s.stdin!.write("echo after-$((20 + 22))\n");
        await screen.waitFor(/after-42/);
        s.stdin!.write("exit 7\n");
        expect(await s.wait()).toBe(7);
      });

      it("signal kills the exec's session but spares daemons that left it", async () => {
        const s = await rt.exec(d.c.id, { command: ["bash", "-c", "sleep 301 & setsid sleep 302 & sleep 303; echo never"] });
        const out = reader(s);
        await new Promise((r) => setTimeout(r, 400));
        await s.signal("SIGKILL");
        const code = await s.wait();
        expect(code).toBe(137);
        expect(out.text()).not.toContain("never");
        const left = await sh(d.c.id, "pgrep -f 'sleep 30[1-3]' -a | grep -v pgrep || true");
        expect(left.stdout).toContain("sleep 302");
        expect(left.stdout).not.toMatch(/sleep 30[13]/);
        await sh(d.c.id, "pkill -f 'sleep 302'");
      });

      it("a command that outlives its time limit is killed", async () => {
        const r = await runCommand(rt, d.c.id, ["bash", "-c", "echo started; sleep 60"], { timeoutMs: 500 });
        expect(r.timedOut).toBe(true);
        expect(r.stdout).toBe("started\n");
        expect(r.durationMs).toBeLessThan(5000);
      });

      it("reads and writes files through the engine, not through binaries inside", async () => {
        await rt.writeFile(d.c.id, "/root/notes/../hello.txt", "hello from outside\n", { mode: 0o600 });
        const st = await sh(d.c.id, "stat -c '%a %U' /root/hello.txt; cat /root/hello.txt");
        expect(st.stdout).toBe("600 root\nhello from outside\n");
        await sh(d.c.id, "echo changed inside > /etc/motd; ln -sf /etc/motd /root/motd-link");
        expect((await rt.readFile(d.c.id, "/etc/motd")).content.toString()).toBe("changed inside\n");
        expect((await rt.readFile(d.c.id, "/root/motd-link")).content.toString()).toBe("changed inside\n");
        // A root user who replaces cat cannot change what the platform reads.
        await sh(d.c.id, "printf '#!/bin/sh\\necho fake\\n' > /usr/local/bin/cat; chmod +x /usr/local/bin/cat");
        expect((await rt.readFile(d.c.id, "/etc/motd")).content.toString()).toBe("changed inside\n");
        await sh(d.c.id, "rm /usr/local/bin/cat");
        await expect(rt.readFile(d.c.id, "/etc/nope")).rejects.toMatchObject({ code: "not_found" });
        await expect(rt.readFile(d.c.id, "/etc")).rejects.toMatchObject({ code: "invalid" });
        await sh(d.c.id, "head -c 3000000 /dev/zero > /tmp/big");
        await expect(rt.readFile(d.c.id, "/tmp/big", { maxBytes: 1_000_000 })).rejects.toMatchObject({ code: "limit" });
        await expect(rt.writeFile(d.c.id, "/usr/bin/planted", "x")).rejects.toMatchObject({ code: "invalid" });
      });

      it("applies the hardening: read-only root, writable bounded dirs, no new privileges, few capabilities", async () => {
        const r = await sh(
          d.c.id,
          [
            "touch /usr/bin/planted 2>&1 | grep -o 'Read-only file system'",
            "touch /etc/ok /var/ok /root/ok /tmp/ok && echo writable",
            "grep NoNewPrivs /proc/self/status",
            "grep CapEff /proc/self/status",
            "ls -l /var/run/docker.sock 2>&1 | grep -o 'No such file'",
            "cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max",
            "cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max",
            "grep -c . /etc/passwd >/dev/null && echo image-content",
          ].join("; "),
        );
        const lines = r.stdout.trim().split("\n");
        expect(lines[0]).toBe("Read-only file system");
        expect(lines[1]).toBe("writable");
        expect(lines[2]).toMatch(/NoNewPrivs:\s+1/);
        expect(BigInt("0x" + lines[3]!.split(/\s+/)[1])).toBe(capMask(baseCapabilities));
        expect(lines[4]).toBe("No such file");
        expect(Number(lines[5])).toBe(512 * MiB);
        expect(Number(lines[6])).toBe(256);
        expect(lines[7]).toBe("image-content");
      });

      it("remove leaves nothing behind", async () => {
        const extra = await deployment("gone");
        await sh(extra.c.id, "echo data > /var/tmp/x");
        await rt.removeDeployment(extra.owner.deploymentId);
        expect(await rt.inspect(extra.c.id)).toBeNull();
        expect(await rt.list({ [LABEL.deployment]: extra.owner.deploymentId })).toEqual([]);
        expect(await rt.listNetworks({ [LABEL.deployment]: extra.owner.deploymentId })).toEqual([]);
        expect(await t.leftovers(extra.owner.deploymentId)).toEqual([]);
        await rt.remove(extra.c.id); // missing is not an error
      });

      it("stops a container at its hard expiry, even with nobody watching", async () => {
        const short = await deployment("expiry", { expiresAt: new Date(Date.now() + 4000) });
        await until(async () => (await rt.inspect(short.c.id))?.state === "exited", 15_000);
        await rt.removeDeployment(short.owner.deploymentId);
      });
    });

    describe("grader", () => {
      it("sees the target's processes and its writable directories live, read-only", async () => {
        const d = await deployment("grader");
        await sh(d.c.id, "echo one > /etc/live.conf; chmod 600 /etc/live.conf; chown 1:1 /etc/live.conf; mkdir -p /srv/app; echo data > /srv/app/f");
        await sh(d.c.id, "SECRET_TOKEN=s3cret setsid sleep 4242 </dev/null >/dev/null 2>&1 &");
        const g = await rt.createContainer({
          owner: d.owner,
          role: "grader",
          image: t.image,
          hostname: "grader",
          network: d.network.name,
          expiresAt: new Date(Date.now() + 120_000),
          pidNamespaceOf: d.c.id,
          readOnlyVolumesOf: d.c.id,
          extraCapabilities: ["SYS_PTRACE", "DAC_READ_SEARCH"],
        });
        expect(g.role).toBe("grader");
        const gsh = (script: string) => sh(g.id, script);
        expect((await gsh("cat /target/etc/live.conf /target/srv/app/f")).stdout).toBe("one\ndata\n");
        // Live: what the target writes afterwards is what the grader reads, not a copy.
        await sh(d.c.id, "echo two > /etc/live.conf");
        expect((await gsh("cat /target/etc/live.conf")).stdout).toBe("two\n");
        const ro = await gsh("touch /target/etc/planted 2>&1; rm -f /target/etc/live.conf 2>&1; ls /target/etc/planted 2>&1 | grep -c 'No such'");
        expect(ro.stdout).toMatch(/Read-only file system/);
        expect(ro.stdout.trim().split("\n").at(-1)).toBe("1");
        const procs = await gsh(
          "p=$(pgrep -f 'sleep 4242' | head -1); readlink /proc/$p/exe; tr '\\0' '\\n' </proc/$p/environ | grep SECRET_TOKEN; ls /proc/$p/fd | head -1; grep -c sleep /proc/$p/maps",
        );
        const [exe, env, fd, maps] = procs.stdout.trim().split("\n");
        expect(exe).toBe("/usr/bin/sleep");
        expect(env).toBe("SECRET_TOKEN=s3cret");
        expect(fd).toBe("0");
        expect(Number(maps)).toBeGreaterThan(0);
        expect((await gsh("grep CapEff /proc/self/status")).stdout.split(/\s+/)[1]).toBe(capMask([...baseCapabilities, "SYS_PTRACE", "DAC_READ_SEARCH"]).toString(16).padStart(16, "0"));
        // The target is removed first while the grader still mounts its volumes: nothing is left.
        await rt.remove(d.c.id);
        await rt.removeDeployment(d.owner.deploymentId);
        expect(await t.leftovers(d.owner.deploymentId)).toEqual([]);
      });

      it("grader options are refused for other roles, other deployments and other capabilities", async () => {
        const a = await deployment("grader-a");
        const b = await deployment("grader-b");
        const base = { role: "grader" as const, image: t.image, hostname: "grader", expiresAt: new Date(Date.now() + 60_000) };
        await expect(rt.createContainer({ ...base, owner: b.owner, network: b.network.name, pidNamespaceOf: a.c.id })).rejects.toMatchObject({ code: "invalid" });
        await expect(rt.createContainer({ ...base, owner: b.owner, network: b.network.name, readOnlyVolumesOf: a.c.id })).rejects.toMatchObject({ code: "invalid" });
        await expect(rt.createContainer({ ...base, role: "target", owner: a.owner, network: a.network.name, hostname: "t2", pidNamespaceOf: a.c.id })).rejects.toMatchObject({ code: "invalid" });
        await expect(rt.createContainer({ ...base, role: "target", owner: a.owner, network: a.network.name, hostname: "t3", extraCapabilities: ["DAC_READ_SEARCH"] })).rejects.toMatchObject({ code: "invalid" });
        await expect(rt.createContainer({ ...base, owner: a.owner, network: a.network.name, extraCapabilities: ["SYS_ADMIN"] })).rejects.toMatchObject({ code: "invalid" });
        await Promise.all([rt.removeDeployment(a.owner.deploymentId), rt.removeDeployment(b.owner.deploymentId)]);
      });
    });

    describe("isolation", () => {
      let a: Awaited<ReturnType<typeof deployment>>;
      let b: Awaited<ReturnType<typeof deployment>>;
      let server: Server;
      let port = 0;
      const accepted: string[] = [];
      beforeAll(async () => {
        [a, b] = await Promise.all([deployment("iso-a"), deployment("iso-b")]);
        server = createServer((sock) => {
          accepted.push(String(sock.remoteAddress));
          sock.end("hello from the host\n");
        });
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, t.hostAddress, () => resolve());
        });
        port = (server.address() as { port: number }).port;
      });
      afterAll(async () => {
        await new Promise((r) => server?.close(r));
      });

      const connect = (id: string, host: string, p: number) => sh(id, `timeout 4 bash -c 'exec 3<>/dev/tcp/${host}/${p} && cat <&3' && echo CONNECTED || echo BLOCKED`, { timeoutMs: 10_000 });

      it("cannot reach a listener on the host's bridge address or through its gateway", async () => {
        const gateway = (await sh(a.c.id, "ip route | awk '/^default/ {print $3}'")).stdout.trim();
        const direct = await connect(a.c.id, t.hostAddress, port);
        expect(direct.stdout).toContain("BLOCKED");
        if (gateway) expect((await connect(a.c.id, gateway, port)).stdout).toContain("BLOCKED");
        expect(accepted).toEqual([]);
      });

      it("cannot reach another deployment, while containers of one deployment reach each other", async () => {
        await sh(b.c.id, "setsid bash -c 'while :; do echo pong | nc -q 1 -l 8081; done' </dev/null >/dev/null 2>&1 &");
        // A second container of deployment B on B's network reaches B's box by name.
        const peer = await rt.createContainer({ owner: b.owner, role: "target", image: t.image, hostname: "peer", network: b.network.name, expiresAt: new Date(Date.now() + 600_000) });
        await until(async () => (await connect(peer.id, "box", 8081)).stdout.includes("pong"), 10_000);
        const fromA = await connect(a.c.id, b.c.ip!, 8081);
        expect(fromA.stdout).toContain("BLOCKED");
        expect(fromA.stdout).not.toContain("pong");
      });

      it("has no way to the metadata address or outside", async () => {
        const r = await connect(a.c.id, "169.254.169.254", 80);
        expect(r.stdout).toContain("BLOCKED");
        // The engine's resolver answers names of the deployment only (it does not forward).
        const dns = await sh(a.c.id, "timeout 3 getent hosts deb.debian.org || echo NO-DNS", { timeoutMs: 15_000 });
        expect(dns.stdout).toContain("NO-DNS");
      });

      it("a fork bomb stays at the pids limit; the host and other deployments stay responsive", async () => {
        const bomb = await deployment("bomb", { limits: { pids: 64 } });
        const s = await rt.exec(bomb.c.id, { command: ["bash", "-c", "f() { f | f & }; f; sleep 30"] });
        reader(s);
        const started = Date.now();
        let maxProcs = 0;
        let maxLag = 0;
        let otherMax = 0;
        while (Date.now() - started < 4000) {
          const tick = performance.now();
          await new Promise((r) => setImmediate(r));
          maxLag = Math.max(maxLag, performance.now() - tick);
          maxProcs = Math.max(maxProcs, await t.processCount(bomb.c.id));
          const other = await runCommand(rt, a.c.id, ["true"]);
          otherMax = Math.max(otherMax, other.durationMs);
          expect(other.exitCode).toBe(0);
        }
        console.log(`[${driver}] fork bomb: max ${maxProcs} processes (limit 64), event loop lag ${maxLag.toFixed(1)} ms, other deployment exec max ${otherMax} ms`);
        expect(maxProcs).toBeGreaterThan(10);
        expect(maxProcs).toBeLessThanOrEqual(64);
        expect(otherMax).toBeLessThan(3000);
        await rt.removeDeployment(bomb.owner.deploymentId);
        expect(await rt.inspect(bomb.c.id)).toBeNull();
      });

      it("a memory hog is killed inside its container; the container survives", async () => {
        const hog = await deployment("hog", { limits: { memoryBytes: 128 * MiB } });
        // tail keeps the one endless line in memory until the kernel's OOM killer ends it.
        const r = await sh(hog.c.id, "head -c 1000m /dev/zero | tail -n 1 >/dev/null; echo status=$?", { timeoutMs: 60_000 });
        expect(r.stdout).toMatch(/status=137/);
        expect((await sh(hog.c.id, "echo alive")).stdout).toBe("alive\n");
        expect((await rt.inspect(hog.c.id))?.state).toBe("running");
        await rt.removeDeployment(hog.owner.deploymentId);
      });

      it("a disk-filling loop stops at its bound; nothing can be written outside the bounded dirs", async () => {
        const r = await sh(a.c.id, "i=0; while dd if=/dev/zero of=/tmp/fill-$i bs=1M count=8 status=none 2>/root/dd-err; do i=$((i+1)); done; cat /root/dd-err; du -sm /tmp | cut -f1", { timeoutMs: 60_000 });
        const [err, used] = r.stdout.trim().split("\n");
        expect(err).toMatch(/No space left on device/);
        expect(Number(used)).toBeLessThanOrEqual(64);
        const root = await sh(a.c.id, "dd if=/dev/zero of=/fill bs=1M count=1 2>&1 | head -1");
        expect(root.stdout).toMatch(/Read-only file system/);
        await sh(a.c.id, "rm -f /tmp/fill-* /root/dd-err");
      });
    });
  });
}

function reader(s: ExecSession) {
  let text = "";
  s.stdout.on("data", (c: Buffer) => (text += c.toString()));
  s.stderr.on("data", (c: Buffer) => (text += c.toString()));
  return {
    text: () => text,
    async waitFor(re: RegExp, ms = 10_000) {
      await until(async () => re.test(text), ms, () => `never saw ${re} in:\n${text}`);
    },
  };
}

async function until(check: () => Promise<boolean>, ms: number, message: () => string = () => "condition not met in time") {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(message());
}

const CAP_BITS: Record<string, number> = {
  CHOWN: 0, DAC_OVERRIDE: 1, DAC_READ_SEARCH: 2, FOWNER: 3, FSETID: 4, KILL: 5, SETGID: 6, SETUID: 7, SETPCAP: 8,
  NET_BIND_SERVICE: 10, NET_RAW: 13, NET_ADMIN: 12, SYS_CHROOT: 18, SYS_PTRACE: 19, MKNOD: 27, AUDIT_WRITE: 29, SETFCAP: 31,
};
function capMask(caps: string[]) {
  return caps.reduce((m, c) => m | (1n << BigInt(CAP_BITS[c]!)), 0n);
}
