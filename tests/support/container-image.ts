// Building faultline's own Dockerfile on a machine without an image registry: the Dockerfile's
// BASE is pointed at a local image made of the challenge base image (Debian 12 from this
// machine's mirror, `npm run images`) plus this machine's Node.js and npm, laid out as the official
// Node image has them (/usr/local). The build stages then run `npm ci` against the npm registry
// this machine uses, trusting the same certificate authorities.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Docker from "dockerode";
import { BASE_IMAGE } from "#server/runtime/images.ts";

export const LOCAL_NODE_BASE = "faultline/test-node-base:latest";
const INPUTS_LABEL = "faultline.test-node-base.inputs";
const CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";

/** Runs a command, failing with the tail of its output. */
export function run(cmd: string, args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 30 * 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}:\n${out.slice(-6000)}`));
    });
  });
}

/** This machine's Node installation: the binary, npm, the headers node-gyp compiles against. */
function hostNode() {
  const node = realpathSync(process.execPath);
  const prefix = dirname(dirname(node));
  const npm = join(prefix, "lib", "node_modules", "npm");
  const include = join(prefix, "include", "node");
  for (const p of [npm, include]) if (!existsSync(p)) throw new Error(`this machine's Node has no ${p}: cannot make a local Node base image`);
  return { node, npm, include };
}

/** Makes (or finds up to date) the local stand-in for the official Node image. */
export async function ensureLocalNodeBase(docker = new Docker()): Promise<string> {
  const { node, npm, include } = hostNode();
  const base = await docker
    .getImage(BASE_IMAGE)
    .inspect()
    .catch(() => null);
  if (!base) throw new Error(`${BASE_IMAGE} is missing: run \`npm run images\` first`);
  const npmVersion = JSON.parse(readFileSync(join(npm, "package.json"), "utf8")).version as string;
  const inputs = createHash("sha256")
    .update([base.Id, process.version, npmVersion, existsSync(CA_BUNDLE) ? readFileSync(CA_BUNDLE) : "", "v1"].join("\0"))
    .digest("hex")
    .slice(0, 24);
  const current = await docker
    .getImage(LOCAL_NODE_BASE)
    .inspect()
    .catch(() => null);
  if (current?.Config.Labels?.[INPUTS_LABEL] === inputs) return LOCAL_NODE_BASE;

  const dir = mkdtempSync(join(tmpdir(), "faultline-node-base-"));
  try {
    copyFileSync(node, join(dir, "node"));
    cpSync(npm, join(dir, "npm"), { recursive: true });
    cpSync(include, join(dir, "include"), { recursive: true });
    if (existsSync(CA_BUNDLE)) copyFileSync(CA_BUNDLE, join(dir, "ca-certificates.crt"));
    else writeFileSync(join(dir, "ca-certificates.crt"), "");
    writeFileSync(
      join(dir, "Dockerfile"),
      [
        `FROM ${BASE_IMAGE}`,
        "COPY node /usr/local/bin/node",
        "COPY npm /usr/local/lib/node_modules/npm",
        "COPY include /usr/local/include/node",
        // The authorities this machine trusts (its npm registry may sit behind its own CA).
        "COPY ca-certificates.crt /usr/local/share/faultline-host-ca.crt",
        "RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\",
        " && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\",
        " && mkdir -p /usr/local/etc && printf 'cafile=/usr/local/share/faultline-host-ca.crt\\nupdate-notifier=false\\n' >/usr/local/etc/npmrc \\",
        " && node --version && npm --version",
        `LABEL ${INPUTS_LABEL}=${inputs}`,
        'CMD ["node"]',
        "WORKDIR /",
      ].join("\n") + "\n",
    );
    await run("docker", ["build", "-q", "-t", LOCAL_NODE_BASE, dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return LOCAL_NODE_BASE;
}

/** `docker build` of the repository's Dockerfile with BASE pointed at `base` (the legacy
 *  builder keeps each stage's layers: unchanged package files reuse the `npm ci` layer). */
export async function buildPlatformImage(repo: string, tag: string, base: string) {
  await run("docker", ["build", "-t", tag, "--build-arg", `BASE=${base}`, "-f", join(repo, "Dockerfile"), repo]);
  return tag;
}
