// The host guard (docs/decisions/003-runtime-docker.md, "Network"): a firewall rule that drops
// everything deployment bridges send to the host itself. This process only looks for it; the
// rule is installed by scripts/docker.sh, as root.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BRIDGE_PREFIX } from "./network.ts";

const run = promisify(execFile);

/** Whether the host guard is in place, remembered for a minute. Read-only: the rule is installed
 *  by scripts/docker.sh (as root), never by this process, which may run unprivileged. Looked at
 *  again when the last look is a minute old (an operator may add or flush rules); a missing rule
 *  is said loudly. `enabled` false (not asked for, or a remote engine): always absent. */
export function createHostGuardCheck(enabled: boolean, warn: (m: string) => void): () => Promise<boolean> {
  let guard: Promise<boolean> | null = null;
  let guardCheckedAt = 0;
  return function hostGuardActive() {
    if (!enabled) return Promise.resolve(false);
    if (!guard || Date.now() - guardCheckedAt > 60_000) {
      guardCheckedAt = Date.now();
      guard = checkHostGuard(warn);
    }
    return guard;
  };
}

/** The host guard: `iptables -I INPUT -i fl-+ -j DROP` (and ip6tables) drops everything
 *  deployment bridges send to the host itself (defence in depth behind the address-less bridge;
 *  it matters once a challenge is granted NET_ADMIN or NET_RAW). Checked with `-C`, which changes
 *  nothing but needs CAP_NET_ADMIN: an unprivileged server asks `sudo -n` for exactly that check
 *  (scripts/up.sh installs a sudoers rule for FAULTLINE_USER allowing only it); without such a
 *  rule it cannot see the firewall and the guard counts as absent (fail closed). */
export async function checkHostGuard(warn: (m: string) => void): Promise<boolean> {
  const rule = ["INPUT", "-i", `${BRIDGE_PREFIX}+`, "-j", "DROP"];
  const asRoot = process.getuid?.() === 0;
  const missing: string[] = [];
  for (const bin of ["iptables", "ip6tables"]) {
    try {
      if (asRoot) await run(bin, ["-w", "-C", ...rule]);
      else await run("sudo", ["-n", bin, "-w", "-C", ...rule]);
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { stderr?: string };
      if (err.code === "ENOENT") missing.push(`${asRoot ? bin : "sudo"} is not installed`);
      else if (/permission denied|you must be root|password is required|not allowed|sudoers/i.test(err.stderr ?? "")) {
        missing.push(`${bin} cannot be read by this user (uid ${process.getuid?.()}; scripts/up.sh with FAULTLINE_USER allows it)`);
      } else missing.push(`${bin} has no rule "${rule.join(" ")}"`);
    }
  }
  if (!missing.length) return true;
  warn(
    `HOST GUARD NOT ACTIVE (${missing.join("; ")}). Deployments still cannot reach the host (their bridges have no address), ` +
      `but challenges that need NET_ADMIN or NET_RAW will be refused. Install it as root: bash -c 'source scripts/lib.sh && host_guard_ensure'.`,
  );
  return false;
}
