// The catalogue loader and the policy helpers (no Docker needed).
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ChallengeError, loadChallenge, loadChallenges, loadLibrary } from "./challenges.ts";
import { clampLimits, defaultLimits, maxLimits, parseSize } from "#server/runtime/policy.ts";
import { valueEnv } from "#server/runtime/scenario.ts";
import { filterTar, firstEntry, packFile } from "#server/runtime/tar.ts";

const minimalYaml = "title: Demo\ncategory: linux\ndifficulty: easy\npoints: 10\ndescription: A demo challenge that is long enough to cut.\n";

describe("challenge catalogue", () => {
  it("loads the shipped challenges with their scripts and runtime needs", () => {
    const all = loadChallenges();
    const ids = all.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["disk-full-deleted-log", "nginx-broken-config"]));
    for (const c of all) {
      expect(c.check.script).toMatch(/^#!\/bin\/bash/);
      expect(c.solution.script.length).toBeGreaterThan(0);
      expect(c.setup.script.length).toBeGreaterThan(0);
      expect(c.image).toBe(`faultline/challenge-${c.id}:latest`);
      expect(c.shortDescription.length).toBeGreaterThan(0);
    }
    const disk = all.find((c) => c.id === "disk-full-deleted-log")!;
    expect(disk.writable.find((w) => w.path === "/srv")?.sizeBytes).toBe(64 * 1024 * 1024);
  });

  function folder(yaml: string, files: Record<string, string> = { Dockerfile: "FROM x", "check.sh": "#!/bin/bash\n", "solution.sh": "#!/bin/bash\n" }) {
    const dir = mkdtempSync(join(tmpdir(), "fl-challenge-"));
    mkdirSync(join(dir, "demo"));
    writeFileSync(join(dir, "demo", "challenge.yaml"), yaml);
    for (const [n, c] of Object.entries(files)) writeFileSync(join(dir, "demo", n), c);
    return join(dir, "demo");
  }
  const minimal = minimalYaml;

  it("fills defaults: time 30 minutes, short description from the description, target check", () => {
    const c = loadChallenge(folder(minimal), "demo");
    expect(c).toMatchObject({ estimatedTimeMinutes: 30, hostname: "box", user: "root", hints: [], check: { timeoutSeconds: 30 } });
    expect(c.shortDescription).toBe("A demo challenge that is long enough to cut.");
  });

  it("every shipped challenge explains itself after solving: a debrief and reference steps", () => {
    for (const c of loadChallenges()) {
      expect(c.debrief.length, c.id).toBeGreaterThan(150);
      expect(c.solutionSteps.length, c.id).toBeGreaterThanOrEqual(3);
      expect(
        c.hints.every((h) => h.text.length > 0 && h.cost >= 0),
        c.id,
      ).toBe(true);
    }
  });

  it("hint costs: a plain hint costs 10% of the points, rounded; {text, cost} sets its own", () => {
    const c = loadChallenge(folder(minimal.replace("points: 10", "points: 250") + 'hints:\n  - "gentle"\n  - { text: "revealing", cost: 40 }\n'), "demo");
    expect(c.hints).toEqual([
      { text: "gentle", cost: 25 },
      { text: "revealing", cost: 40 },
    ]);
    expect(() => loadChallenge(folder(minimal + "hints:\n  - { text: x, cost: -1 }\n"), "demo")).toThrow(/hints/);
  });

  it("a warm pool size: pool: 0-10 (docs/decisions/011-warm-pool.md), absent leaves it to WARM_POOL_SIZE", () => {
    expect(loadChallenge(folder(minimal), "demo").pool).toBeUndefined();
    expect(loadChallenge(folder(minimal + "pool: 2\n"), "demo").pool).toBe(2);
    expect(loadChallenge(folder(minimal + "pool: 0\n"), "demo").pool).toBe(0);
    for (const bad of ["-1", "11", "1.5", "many"]) expect(() => loadChallenge(folder(minimal + `pool: ${bad}\n`), "demo")).toThrow(/challenge.yaml:\n\s+pool:/);
  });

  it("runs fakes/after-fix/*.sh right after the reference fix, in the same shell; two fakes of one name are a mistake", () => {
    const dir = folder(minimal, { Dockerfile: "FROM x", "check.sh": "#!/bin/bash\n", "solution.sh": "#!/bin/bash\nfixed=yes\n" });
    mkdirSync(join(dir, "fakes", "after-fix"), { recursive: true });
    writeFileSync(join(dir, "fakes", "standin.sh"), "#!/bin/bash\nstandin\n");
    writeFileSync(join(dir, "fakes", "after-fix", "boot-later.sh"), "#!/bin/bash\necho $fixed\n");
    const fakes = loadChallenge(dir, "demo").fakes;
    expect(fakes.map((f) => f.name)).toEqual(["boot-later", "standin"]);
    expect(fakes[1]!.script).toBe("#!/bin/bash\nstandin\n");
    const after = fakes[0]!.script;
    expect(after.startsWith("#!/bin/bash\nfixed=yes\n")).toBe(true);
    expect(after.indexOf("echo $fixed")).toBeGreaterThan(after.indexOf("fixed=yes"));
    writeFileSync(join(dir, "fakes", "boot-later.sh"), "#!/bin/bash\n");
    expect(() => loadChallenge(dir, "demo")).toThrow(/two fakes named boot-later/);
  });

  it("runs fakes/lib.sh (not a fake itself) in the same shell right before each fake", () => {
    const dir = folder(minimal, { Dockerfile: "FROM x", "check.sh": "#!/bin/bash\n", "solution.sh": "#!/bin/bash\nfixed=yes\n" });
    mkdirSync(join(dir, "fakes", "after-fix"), { recursive: true });
    writeFileSync(join(dir, "fakes", "lib.sh"), "#!/bin/bash\nshared() { echo shared; }\n");
    writeFileSync(join(dir, "fakes", "standin.sh"), "#!/bin/bash\nshared\n");
    writeFileSync(join(dir, "fakes", "after-fix", "boot-later.sh"), "#!/bin/bash\nshared $fixed\n");
    const fakes = loadChallenge(dir, "demo").fakes;
    expect(fakes.map((f) => f.name)).toEqual(["boot-later", "standin"]);
    const before = fakes[1]!.script;
    expect(before.startsWith("#!/bin/bash\nshared() { echo shared; }\n")).toBe(true);
    expect(before.endsWith("#!/bin/bash\nshared\n")).toBe(true);
    const after = fakes[0]!.script;
    expect(after.startsWith("#!/bin/bash\nfixed=yes\n")).toBe(true);
    expect(after.indexOf("shared() {")).toBeGreaterThan(after.indexOf("fixed=yes"));
    expect(after.indexOf("shared $fixed")).toBeGreaterThan(after.indexOf("shared() {"));
  });

  it("names the file and the field of a mistake", () => {
    expect(() => loadChallenge(folder(minimal.replace("easy", "trivial")), "demo")).toThrow(/challenge.yaml:\n\s+difficulty:/);
    expect(() => loadChallenge(folder(minimal + "colour: red\n"), "demo")).toThrow(ChallengeError);
    expect(() => loadChallenge(folder(minimal + "runtime:\n  capabilities: [SYS_ADMIN]\n"), "demo")).toThrow(/runtime.capabilities/);
    expect(() => loadChallenge(folder(minimal, { Dockerfile: "FROM x", "solution.sh": "" }), "demo")).toThrow(/check.sh is missing/);
  });
});

describe("the library", () => {
  it("keeps the good challenges in service and reports a broken one with its file and field", () => {
    const root = mkdtempSync(join(tmpdir(), "fl-library-"));
    const files = { Dockerfile: "FROM x", "check.sh": "#!/bin/bash\n", "solution.sh": "#!/bin/bash\n" };
    for (const [id, yaml] of [
      ["good", minimalYaml],
      ["broken", minimalYaml.replace("points: 10", "points: lots")],
    ] as const) {
      mkdirSync(join(root, id));
      writeFileSync(join(root, id, "challenge.yaml"), yaml);
      for (const [n, c] of Object.entries(files)) writeFileSync(join(root, id, n), c);
    }
    const { challenges, problems } = loadLibrary(root);
    expect(challenges.map((c) => c.id)).toEqual(["good"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/broken\/challenge\.yaml:\n\s+points:/);
    expect(() => loadChallenges(root)).toThrow(/points/);
  });
});

describe("policy", () => {
  it("parses sizes", () => {
    expect(parseSize("64m")).toBe(64 * 1024 * 1024);
    expect(parseSize("1g")).toBe(1024 ** 3);
    expect(parseSize("512K")).toBe(512 * 1024);
    expect(parseSize(1000)).toBe(1000);
    expect(() => parseSize("lots")).toThrow();
  });
  it("keeps limits within the ceilings", () => {
    expect(clampLimits(undefined)).toEqual(defaultLimits);
    expect(clampLimits({ memoryBytes: 1e12, cpus: 64, pids: 1e6 })).toEqual(maxLimits);
  });
  it("turns setup values into FL_ variables", () => {
    expect(valueEnv({ fault: "x", "build-id": "y" })).toEqual({ FL_FAULT: "x", FL_BUILD_ID: "y" });
  });
});

describe("tar helpers", () => {
  it("packs a file and reads it back", async () => {
    const tar = await packFile("a.txt", Buffer.from("hello"), { mode: 0o600 });
    const entry = await firstEntry(Readable.from([tar]), 100);
    expect(entry).toMatchObject({ name: "a.txt", mode: 0o600, size: 5 });
    expect(entry!.content.toString()).toBe("hello");
    await expect(firstEntry(Readable.from([tar]), 2)).rejects.toThrow(/larger than 2 bytes/);
  });
  it("filters entries and makes escaping relative links absolute", async () => {
    const tarStream = await import("tar-stream");
    const pack = tarStream.default.pack();
    pack.entry({ name: "./", type: "directory", mode: 0o755 });
    pack.entry({ name: "./hosts", size: 3 }, "x\n\n");
    pack.entry({ name: "./os-release", type: "symlink", linkname: "../usr/lib/os-release" });
    pack.entry({ name: "./alternatives/vi", type: "symlink", linkname: "../vim" });
    pack.finalize();
    const { tar, rootMode } = await filterTar(pack as unknown as Readable, "/etc", (n) => n === "hosts");
    expect(rootMode).toBe(0o755);
    const names: [string, string | null | undefined][] = [];
    const ex = tarStream.default.extract();
    ex.on("entry", (h, s, next) => {
      names.push([h.name, h.linkname]);
      s.resume();
      s.on("end", next);
    });
    await new Promise<void>((r) => {
      ex.on("finish", () => r());
      Readable.from([tar]).pipe(ex);
    });
    expect(names).toEqual([
      ["./", null],
      ["./os-release", "/usr/lib/os-release"],
      ["./alternatives/vi", "../vim"],
    ]);
  });
});
