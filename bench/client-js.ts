// The JavaScript a first visit of each page loads (zod and conform once added ~23 KiB gz
// to the challenge page's JS), read from a production build, so the figure is reproducible without a
// server or a browser:
//
//   npm run build && npx tsx bench/client-js.ts [--build=build/client] [/path ...]
//
// A page's scripts are what React Router's <Scripts/> names for it: the manifest script, the
// client entry and its imports, and each matched route's module with its static imports (the
// modulepreload list of the HTML; the manifest's `imports` are already the full static closure),
// plus the classic scripts from public/ that the root layout names (found by their path in the
// server bundle). Chunks loaded later by a dynamic import (the terminal, the replay player, the
// easter egg) are not counted: a first visit does not load them until asked.
//
// Prints per page: files, KiB raw, gzip (level 9) and brotli (quality 11), which is what the
// server sends (it compresses static files once at the strongest setting), and how much of it
// sits in chunks that carry zod or conform. Then every chunk counted, with its sizes and tags.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { matchRoutes, type RouteObject } from "react-router";

const ROOT = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const CLIENT = resolve(args.find((a) => a.startsWith("--build="))?.slice("--build=".length) ?? join(ROOT, "build/client"));
const SERVER_BUNDLE = join(CLIENT, "../server/index.js");
const PAGES = args.filter((a) => a.startsWith("/"));
if (PAGES.length === 0) {
  PAGES.push(
    "/",
    "/challenges",
    "/leaderboard",
    "/challenges/example",
    "/login",
    "/register",
    "/login/2fa",
    "/forgot-password",
    "/reset-password",
    "/profile",
    "/profile/settings",
    "/billing",
    "/admin",
  );
}

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

const assets = join(CLIENT, "assets");
if (!existsSync(assets)) throw new Error(`no build at ${CLIENT}: run npm run build first`);
const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) throw new Error(`no manifest-*.js in ${assets}`);
const manifestText = readFileSync(join(assets, manifestFile), "utf8");
const manifest = JSON.parse(manifestText.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as Manifest;

// The route tree, rebuilt from the manifest's parent links, for React Router's own matcher.
function children(parentId: string | undefined): RouteObject[] {
  return Object.values(manifest.routes)
    .filter((r) => r.parentId === parentId)
    .map((r) => (r.index ? { id: r.id, index: true } : { id: r.id, path: r.path, children: children(r.id) }));
}
const tree = children(undefined);

// Classic scripts copied from public/ that the server's HTML names (e.g. <script src="/x.js">).
const serverBundle = existsSync(SERVER_BUNDLE) ? readFileSync(SERVER_BUNDLE, "utf8") : "";
const classic = readdirSync(CLIENT)
  .filter((f) => f.endsWith(".js") && serverBundle.includes(`"/${f}"`))
  .map((f) => `/${f}`);

interface Size {
  raw: number;
  gzip: number;
  brotli: number;
  tags: string[];
}
const sizes = new Map<string, Size>();
function size(url: string): Size {
  let s = sizes.get(url);
  if (!s) {
    const body = readFileSync(join(CLIENT, url));
    const text = body.toString("utf8");
    const tags = [];
    // zod's classes carry `_zod` internals; conform's submission code names its `__intent__` field.
    if (/\b_zod\b/.test(text)) tags.push("zod");
    if (text.includes("__intent__")) tags.push("conform");
    s = {
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      tags,
    };
    sizes.set(url, s);
  }
  return s;
}

function scriptsOf(page: string): string[] {
  const matches = matchRoutes(tree, page) ?? [];
  const urls = new Set<string>([...classic, `/assets/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports]);
  for (const m of matches) {
    const r = manifest.routes[m.route.id!]!;
    urls.add(r.module);
    for (const i of r.imports ?? []) urls.add(i);
  }
  return [...urls];
}

const kib = (n: number) => (n / 1024).toFixed(1);
const pad = (s: string, n: number) => s.padStart(n);
console.log(`client JS of a first visit, from ${CLIENT}`);
console.log(
  `${"page".padEnd(22)}${pad("files", 6)}${pad("raw KiB", 9)}${pad("gzip KiB", 10)}${pad("br KiB", 8)}   of which zod/conform chunks: raw / gzip KiB`,
);
const counted = new Set<string>();
for (const page of PAGES) {
  const urls = scriptsOf(page);
  let raw = 0,
    gz = 0,
    br = 0,
    formRaw = 0,
    formGz = 0;
  for (const u of urls) {
    counted.add(u);
    const s = size(u);
    raw += s.raw;
    gz += s.gzip;
    br += s.brotli;
    if (s.tags.length) {
      formRaw += s.raw;
      formGz += s.gzip;
    }
  }
  const routes = (matchRoutes(tree, page) ?? []).map((m) => m.route.id).join(" > ");
  console.log(
    `${page.padEnd(22)}${pad(String(urls.length), 6)}${pad(kib(raw), 9)}${pad(kib(gz), 10)}${pad(kib(br), 8)}   ${kib(formRaw)} / ${kib(formGz)}   (${routes})`,
  );
}
console.log(`\nchunks counted above${"".padEnd(4)}raw KiB  gzip KiB  tags`);
for (const u of [...counted].sort((a, b) => size(b).raw - size(a).raw)) {
  const s = size(u);
  console.log(`  ${u.padEnd(44)}${pad(kib(s.raw), 7)}${pad(kib(s.gzip), 9)}  ${s.tags.join(",")}`);
}
