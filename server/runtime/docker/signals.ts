// Signalling an exec (docs/decisions/003-runtime-docker.md, "Exec", Signals): API 1.41 has no
// kill for execs, so the exec's process and every process of its process session are signalled
// by host PID, each identified by its PID and start time (PIDs are reused).
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import type Docker from "dockerode";

export interface ProcessId {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: with the PID, it names one process (PIDs are reused). null:
   *  the process had already ended when its PID was learned. */
  start: string | null;
}

/** Signals an exec'd process and every process of its process session (the engine makes each
 *  exec a session leader), on this host. Processes that left the process session (daemons:
 *  setsid) are spared. Only the container's own processes are looked at (the member list of its
 *  cgroup, read from the host; the whole of /proc only when that list cannot be found), and each
 *  is signalled only while its PID still names the same process (same start time) as when it was
 *  found. `denied`: when this process may not signal them (it runs unprivileged, in the docker
 *  group), the PIDs are handed over with their numbers inside the container's PID namespace. */
export async function signalProcessSession(
  leader: ProcessId,
  container: { id: string; initPid: number },
  signal: NodeJS.Signals,
  denied: (nsPids: number[]) => Promise<void>,
) {
  const now = statOf(leader.pid);
  // The leader's PID names another process now (or, for a leader known to have ended, any live
  // process): the kernel reuses a PID only once no process uses it as its session id any more,
  // so nothing of this exec's process session is left to signal.
  if (now && (leader.start === null ? now.state !== "Z" : now.start !== leader.start)) return;
  const members = (await cgroupMembers(leader.pid, container.id)) ?? (await cgroupMembers(container.initPid, container.id));
  const candidates = members ?? (await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number);
  const targets: { pid: number; start: string }[] = [];
  for (const pid of candidates) {
    const st = statOf(pid);
    if (!st || st.session !== leader.pid) continue;
    if (!members && !(await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "")).includes(container.id)) continue;
    targets.push({ pid, start: st.start });
  }
  const refused: number[] = [];
  for (const t of targets) {
    // Checked again right before kill(2), synchronously (nothing else runs in this process in
    // between): a PID freed and reused since the scan is not signalled. What is left is the
    // instant between this read and the signal; pidfd_send_signal would close it, but Node has no
    // binding for it. A PID cannot be reused while it is a zombie, i.e. until its parent (inside
    // the container, or tini) reaped it.
    if (statOf(t.pid)?.start !== t.start) continue;
    try {
      process.kill(t.pid, signal);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EPERM") refused.push(t.pid);
    }
  }
  if (refused.length) {
    const inside = refused.map(nsPidOf).filter((p): p is number => p !== null);
    if (inside.length) await denied(inside);
  }
}

/** Signals processes of a container by their PIDs inside it, through the engine: for a server
 *  that may not signal root's processes itself. `/bin/kill` is on the read-only root. */
export async function signalInside(docker: Docker, containerId: string, pids: number[], signal: NodeJS.Signals) {
  const ex = await docker.getContainer(containerId).exec({
    Cmd: ["/bin/kill", "-s", signal.replace(/^SIG/, ""), "--", ...pids.map(String)],
    User: "0",
    AttachStdout: false,
    AttachStderr: false,
  });
  // Detached: the engine has started it when it answers; the answer's stream would keep a
  // connection (and this process) alive.
  const answer = (await ex.start({ Detach: true })) as unknown as Readable | undefined;
  answer?.destroy?.();
}

/** State, process session id and start time of a host process; null when it is gone. */
export function statOf(pid: number): { state: string; session: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, session: Number(fields[3]), start: fields[19]! };
  } catch {
    return null;
  }
}

/** The PIDs in the same cgroup as `pid` when that cgroup is the container's (cgroup v1 `pids`
 *  hierarchy, or v2); null when it cannot be told. Reading it needs no privilege. */
async function cgroupMembers(pid: number, containerId: string): Promise<number[] | null> {
  const text = await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
  const line = text.split("\n").find((l) => /^\d+:pids:/.test(l)) ?? text.split("\n").find((l) => l.startsWith("0::"));
  if (!line || !line.includes(containerId)) return null;
  const path = line.slice(line.indexOf(":", line.indexOf(":") + 1) + 1);
  const dir = line.startsWith("0::") ? `/sys/fs/cgroup${path}` : `/sys/fs/cgroup/pids${path}`;
  const procs = await readFile(`${dir}/cgroup.procs`, "utf8").catch(() => null);
  return procs === null ? null : procs.split("\n").filter(Boolean).map(Number);
}

/** The PID of a host process inside its own PID namespace (the last NSpid field). */
function nsPidOf(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("NSpid:"));
    const last = line?.trim().split(/\s+/).at(-1);
    return last && /^\d+$/.test(last) ? Number(last) : null;
  } catch {
    return null;
  }
}
