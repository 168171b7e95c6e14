// One internal network per deployment whose bridge has no address (docs/decisions/003-runtime-
// docker.md, "Network"): containers of a deployment reach each other by name, and nothing else:
// not the host, not another deployment, not the outside.
import { createHash, randomInt } from "node:crypto";
import { LABEL, ownerFromLabels, ownerLabels, safeName } from "#server/runtime/policy.ts";
import { RuntimeError, type NetworkInfo, type Owner } from "#server/runtime/types.ts";
import { checkOwner, labelFilters, sleep, statusOf, type DriverContext } from "./engine.ts";

/** Deployment bridges are named `fl-<12 hex>`: the host guard's rule matches `fl-+`. */
export const BRIDGE_PREFIX = "fl-";

export function networkName(deploymentId: string, purpose?: string) {
  return safeName(purpose ? `fl-${deploymentId}-${purpose}` : `fl-${deploymentId}`);
}

/** `subnetPool`: where deployment networks take their /28 subnets from. Parsed at once, so a bad
 *  pool fails when the driver is created. */
export function createNetworks(ctx: DriverContext, subnetPool: string) {
  const { docker } = ctx;
  const pool = parsePool(subnetPool);

  async function createNetwork(owner: Owner, purpose?: string): Promise<NetworkInfo> {
    checkOwner(owner);
    if (purpose !== undefined && !/^[a-z0-9]{1,12}$/.test(purpose)) throw new RuntimeError(`not a network purpose: ${purpose}`, "invalid");
    await ctx.hostGuardActive();
    const name = networkName(owner.deploymentId, purpose);
    const existing = await findNetwork(name);
    if (existing) return existing;
    const bridge = BRIDGE_PREFIX + createHash("sha256").update(name).digest("hex").slice(0, 12);
    const labels = ownerLabels(owner);
    // A /28 of our own pool per deployment: Docker's default pools hold ~30 networks only.
    const start = parseInt(createHash("sha256").update(name).digest("hex").slice(0, 8), 16) % pool.count;
    let lastError: unknown;
    for (let i = 0; i < 64; i++) {
      const subnet = pool.subnet((start + i * 7919) % pool.count);
      try {
        const network = await docker.createNetwork({
          Name: name,
          Driver: "bridge",
          Internal: true,
          CheckDuplicate: true,
          Labels: labels,
          IPAM: { Driver: "default", Config: [{ Subnet: subnet }] },
          Options: {
            "com.docker.network.bridge.name": bridge,
            // The bridge gets no IPv4 address, so the host is not the containers' gateway:
            // nothing on the host answers them, whatever address it listens on.
            "com.docker.network.bridge.inhibit_ipv4": "true",
            "com.docker.network.bridge.enable_icc": "true",
            "com.docker.network.bridge.enable_ip_masquerade": "false",
          },
        });
        return { id: network.id, name, owner, labels, subnet };
      } catch (e) {
        lastError = e;
        const msg = (e as Error).message;
        if (/already exists/i.test(msg)) {
          const n = await findNetwork(name);
          if (n) return n;
        }
        if (!/overlap|pool/i.test(msg)) break;
      }
    }
    throw new RuntimeError(`could not create network ${name}: ${(lastError as Error)?.message}`, "failed");
  }

  async function findNetwork(name: string): Promise<NetworkInfo | null> {
    try {
      const info = await docker.getNetwork(name).inspect();
      const labels = info.Labels ?? {};
      if (labels[LABEL.managed] !== "1") throw new RuntimeError(`network ${name} exists and is not managed by faultline`, "invalid");
      return { id: info.Id, name: info.Name, owner: ownerFromLabels(labels), labels, subnet: subnetOf(info) };
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
  }

  async function removeNetwork(nameOrId: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        await docker.getNetwork(nameOrId).remove();
        return;
      } catch (e) {
        if (statusOf(e) === 404) return;
        // Endpoints of containers being removed can linger for a moment.
        if (attempt < 20 && /active endpoints/i.test((e as Error).message)) {
          await sleep(100);
          continue;
        }
        throw e;
      }
    }
  }

  /** The network's addresses as the engine gave them (the list and the inspection both carry them). */
  const subnetOf = (n: { IPAM?: { Config?: unknown[] } }) => (n.IPAM?.Config?.[0] as { Subnet?: string } | undefined)?.Subnet;

  async function listNetworks(labels: Record<string, string> = {}): Promise<NetworkInfo[]> {
    const list = await docker.listNetworks({ filters: { label: labelFilters(labels) } });
    return list.map((n) => ({ id: n.Id, name: n.Name, owner: ownerFromLabels(n.Labels ?? {}), labels: n.Labels ?? {}, subnet: subnetOf(n) }));
  }

  /** An address of the network no container holds, picked at random: a grader is not the host
   *  that called last time. Undefined when none can be told (the engine then picks one). */
  async function randomFreeAddress(nameOrId: string): Promise<string | undefined> {
    const info = await docker.getNetwork(nameOrId).inspect();
    const config = info.IPAM?.Config?.[0] as { Subnet?: string; Gateway?: string } | undefined;
    const m = config?.Subnet ? /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(config.Subnet) : null;
    if (!m || Number(m[5]) < 24) return undefined;
    const base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
    const size = 2 ** (32 - Number(m[5]));
    const taken = new Set([config!.Gateway, ...Object.values(info.Containers ?? {}).map((c) => (c as { IPv4Address?: string }).IPv4Address?.split("/")[0])]);
    const free: string[] = [];
    for (let i = 2; i < size - 1; i++) {
      const a = (base + i) >>> 0;
      const ip = `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`;
      if (!taken.has(ip)) free.push(ip);
    }
    return free.length ? free[randomInt(free.length)] : undefined;
  }

  return { createNetwork, findNetwork, removeNetwork, listNetworks, randomFreeAddress };
}

export type Networks = ReturnType<typeof createNetworks>;

function parsePool(cidr: string) {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!m) throw new Error(`subnet pool must be an IPv4 CIDR: ${cidr}`);
  const bits = Number(m[5]);
  if (bits > 26) throw new Error(`subnet pool ${cidr} is too small`);
  const base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const count = 2 ** (28 - bits);
  return {
    count,
    subnet(i: number) {
      const a = (base + i * 16) >>> 0;
      return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/28`;
    },
  };
}
