// Builds the images deployments run: the base image (debootstrap + import, since no image registry
// is reachable) and one image per challenge folder (its Dockerfile, FROM the base image).
// Skips what is up to date: each image carries the hash of its inputs as a label.
//
//   npm run images                 # everything that changed
//   npm run images -- --force      # rebuild all (with names: only those)
//   npm run images -- base nginx-broken-config   # only these
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Docker from "dockerode";
import tar from "tar-stream";
import { BASE_IMAGE, INPUTS_LABEL, challengeImage } from "#server/runtime/images.ts";

const root = join(import.meta.dirname, "..");
const baseDir = join(root, "images", "base");
// The same content folder the server reads (CHALLENGES_DIR, default this checkout's challenges/).
const challengesDir = process.env.CHALLENGES_DIR ? resolve(process.env.CHALLENGES_DIR) : join(root, "challenges");
/** Files of a challenge folder that never go into its image (the user must not read them). */
const NOT_IN_IMAGE = new Set(["challenge.yaml", "setup.sh", "check.sh", "inspect.sh", "solution.sh", "README.md", ".dockerignore"]);
/** Folders of a challenge that never go into its image either (the fakes suite's scripts). */
const NOT_IN_IMAGE_DIRS = ["fakes/"];
const SUITE = process.env.FAULTLINE_BASE_SUITE ?? "bookworm";

const docker = new Docker();
const args = process.argv.slice(2);
const force = args.includes("--force");
const only = args.filter((a) => !a.startsWith("--"));

function say(msg: string) {
  process.stdout.write(`\x1b[1;34m[images]\x1b[0m ${msg}\n`);
}
function hashOf(parts: (string | Buffer)[]) {
  const h = createHash("sha256");
  for (const p of parts) h.update(typeof p === "string" ? p : p).update("\0");
  return h.digest("hex").slice(0, 24);
}
async function labelOf(tag: string): Promise<string | undefined> {
  try {
    return (await docker.getImage(tag).inspect()).Config.Labels?.[INPUTS_LABEL];
  } catch {
    return undefined;
  }
}
async function imageId(tag: string) {
  return docker
    .getImage(tag)
    .inspect()
    .then((i) => i.Id)
    .catch(() => undefined);
}
/** Drops the image a rebuild replaced when nothing uses it any more. */
async function dropReplaced(oldId: string | undefined, tag: string) {
  if (oldId && oldId !== (await imageId(tag)))
    await docker
      .getImage(oldId)
      .remove()
      .catch(() => {});
}

/** The Debian mirror this machine uses (deb822 sources first, then sources.list). */
export function debianMirror(): string {
  if (process.env.FAULTLINE_DEBIAN_MIRROR) return process.env.FAULTLINE_DEBIAN_MIRROR;
  const deb822 = "/etc/apt/sources.list.d/debian.sources";
  if (existsSync(deb822)) {
    for (const stanza of readFileSync(deb822, "utf8").split(/\n\s*\n/)) {
      const uri = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1] ?? "";
      if (uri && !/security/.test(uri) && suites.split(/\s+/).includes(SUITE)) return uri;
    }
  }
  if (existsSync("/etc/apt/sources.list")) {
    const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/m.exec(readFileSync("/etc/apt/sources.list", "utf8"));
    if (m && !/security/.test(m[1]!)) return m[1]!;
  }
  throw new Error(`no Debian mirror for ${SUITE} in this machine's apt sources: set FAULTLINE_DEBIAN_MIRROR`);
}

function runShown(cmd: string, argv: string[], prefix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let tail: string[] = [];
    const onLine = (line: string) => {
      if (!line.trim()) return;
      tail = [...tail.slice(-30), line];
      // debootstrap says a lot; its I: lines are the progress worth showing.
      if (/^(I|W|E):/.test(line)) process.stdout.write(`  ${prefix} ${line}\n`);
    };
    for (const s of [child.stdout, child.stderr]) {
      let buf = "";
      s.on("data", (c: Buffer) => {
        buf += c.toString();
        const lines = buf.split("\n");
        buf = lines.pop()!;
        lines.forEach(onLine);
      });
    }
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}:\n${tail.join("\n")}`))));
  });
}

async function buildBase(): Promise<string> {
  const packages = readFileSync(join(baseDir, "packages.txt"), "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  const mirror = debianMirror();
  const hash = hashOf([SUITE, mirror, packages.join(","), readFileSync(join(baseDir, "finish.sh")), "base-v1"]);
  const forced = force && (only.length === 0 || only.includes("base"));
  if (!forced && (await labelOf(BASE_IMAGE)) === hash) {
    say(`${BASE_IMAGE} is up to date (${hash})`);
    return hash;
  }
  if ((await new Promise<number>((r) => spawn("sh", ["-c", "command -v debootstrap"]).on("close", r))) !== 0) {
    throw new Error("debootstrap is missing: apt-get install -y debootstrap (scripts/docker.sh does it)");
  }
  const started = Date.now();
  const dir = mkdtempSync(join(process.env.TMPDIR ?? "/var/tmp", "faultline-base-"));
  const rootfs = join(dir, "rootfs");
  try {
    say(`building ${BASE_IMAGE}: debootstrap ${SUITE} from ${mirror} (${packages.length} extra packages)`);
    await runShown("debootstrap", ["--variant=minbase", `--include=${packages.join(",")}`, SUITE, rootfs, mirror], "debootstrap");
    await runShown("bash", [join(baseDir, "finish.sh"), rootfs, mirror, SUITE], "finish");
    say(`importing into Docker`);
    const oldId = await imageId(BASE_IMAGE);
    const tarProc = spawn("tar", ["--numeric-owner", "-C", rootfs, "-c", "."], { stdio: ["ignore", "pipe", "inherit"] });
    const [repo, tag] = BASE_IMAGE.split(":");
    const stream = await docker.importImage(
      tarProc.stdout as unknown as NodeJS.ReadableStream,
      {
        repo,
        tag: tag ?? "latest",
        changes: [`LABEL ${INPUTS_LABEL}=${hash}`, `ENV LANG=C.UTF-8`, `CMD ["/bin/bash"]`, `WORKDIR /root`],
      } as never,
    );
    await follow(stream as unknown as NodeJS.ReadableStream, "import");
    await dropReplaced(oldId, BASE_IMAGE);
    say(`${BASE_IMAGE} built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return hash;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesOf(p));
    else out.push(p);
  }
  return out;
}

async function buildChallenge(slug: string, baseHash: string) {
  const dir = join(challengesDir, slug);
  const files = filesOf(dir).filter((f) => !NOT_IN_IMAGE.has(relative(dir, f)) && !NOT_IN_IMAGE_DIRS.some((d) => relative(dir, f).startsWith(d)));
  const hash = hashOf([baseHash, ...files.flatMap((f) => [relative(dir, f), readFileSync(f)])]);
  const tag = challengeImage(slug);
  if (!force && (await labelOf(tag)) === hash) {
    say(`${tag} is up to date (${hash})`);
    return;
  }
  const started = Date.now();
  say(`building ${tag}`);
  const pack = tar.pack();
  for (const f of files) {
    const st = statSync(f);
    pack.entry({ name: relative(dir, f), mode: st.mode & 0o777, mtime: st.mtime }, readFileSync(f));
  }
  pack.finalize();
  const oldId = await imageId(tag);
  const stream = (await docker.buildImage(
    pack as unknown as NodeJS.ReadableStream,
    {
      t: tag,
      labels: { [INPUTS_LABEL]: hash, "faultline.challenge": slug },
      rm: true,
      forcerm: true,
      pull: false,
    } as never,
  )) as unknown as NodeJS.ReadableStream;
  await follow(stream, slug);
  await dropReplaced(oldId, tag);
  say(`${tag} built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

function follow(stream: NodeJS.ReadableStream, prefix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, results: { error?: string; errorDetail?: { message?: string } }[]) => {
        const failed = results?.find((r) => r.error || r.errorDetail);
        if (err || failed) reject(new Error(`${prefix}: ${err?.message ?? failed?.errorDetail?.message ?? failed?.error}`));
        else resolve();
      },
      (event: { stream?: string; status?: string }) => {
        const text = (event.stream ?? event.status ?? "").trimEnd();
        for (const line of text.split("\n")) if (line.trim()) process.stdout.write(`  [${prefix}] ${line}\n`);
      },
    );
  });
}

export function challengeSlugs(): string[] {
  if (!existsSync(challengesDir)) return [];
  return readdirSync(challengesDir)
    .filter((d) => existsSync(join(challengesDir, d, "Dockerfile")))
    .sort();
}

async function main() {
  const started = Date.now();
  await docker.ping().catch((e) => {
    throw new Error(`Docker engine not reachable: ${e.message} (bash -c 'source scripts/lib.sh && docker_ensure' starts it)`);
  });
  const slugs = challengeSlugs();
  const unknown = only.filter((o) => o !== "base" && !slugs.includes(o));
  if (unknown.length) throw new Error(`unknown image(s): ${unknown.join(", ")}; known: base, ${slugs.join(", ")}`);
  const baseHash = await buildBase();
  for (const slug of slugs) {
    if (only.length && !only.includes(slug)) continue;
    await buildChallenge(slug, baseHash);
  }
  say(`done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e) => {
    process.stderr.write(`\x1b[1;31m[images] ${e instanceof Error ? e.message : e}\x1b[0m\n`);
    process.exit(1);
  });
}
