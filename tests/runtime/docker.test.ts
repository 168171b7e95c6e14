// The conformance suite against the Docker driver and the local dockerd (scripts/docker.sh
// starts it; npm run images builds the base image).
import Docker from "dockerode";
import { createDockerRuntime } from "../../server/runtime/docker.ts";
import { BASE_IMAGE } from "../../server/runtime/images.ts";
import { LABEL } from "../../server/runtime/policy.ts";
import { runtimeConformance } from "./conformance.ts";

runtimeConformance("docker", async () => {
  const docker = new Docker();
  const runtime = createDockerRuntime({ docker });
  await docker.getImage(BASE_IMAGE).inspect().catch(() => {
    throw new Error(`${BASE_IMAGE} is missing: run npm run images first`);
  });
  const bridge = await docker.getNetwork("bridge").inspect();
  const hostAddress = bridge.IPAM?.Config?.[0]?.Gateway ?? "172.17.0.1";
  return {
    runtime,
    image: BASE_IMAGE,
    hostAddress,
    async processCount(id) {
      const top = await docker.getContainer(id).top({ ps_args: "-e" }).catch(() => null);
      return top?.Processes?.length ?? 0;
    },
    async leftovers(deploymentId) {
      const filter = { label: [`${LABEL.deployment}=${deploymentId}`] };
      const containers = await docker.listContainers({ all: true, filters: filter });
      const networks = await docker.listNetworks({ filters: filter });
      const volumes = (await docker.listVolumes({ filters: filter })).Volumes ?? [];
      return [...containers.map((c) => `container ${c.Id}`), ...networks.map((n) => `network ${n.Name}`), ...volumes.map((v) => `volume ${v.Name}`)];
    },
  };
});
