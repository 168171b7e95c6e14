// A source file over 350 lines says why at its top ("Over 350 lines: ..."): a long file is most
// often two concerns in one, and the reader deserves to know when it is not. Every tracked source
// file counts: the platform, the web, the tests, the benches, the checks and their scripts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const LIMIT = 350;
const SOURCES = /\.(ts|tsx|py|sh|mjs|js)$/;

it(`every source file over ${LIMIT} lines says why near its top`, () => {
  const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => SOURCES.test(f));
  expect(files.length).toBeGreaterThan(100);
  const unexplained = files.filter((f) => {
    // Lines as wc -l counts them: the newline that ends the last one starts no other.
    const lines = readFileSync(join(ROOT, f), "utf8").replace(/\n$/, "").split("\n");
    return lines.length > LIMIT && !lines.slice(0, 40).some((l) => /^\s*(\/\/|#)\s*Over 350 lines: \S/.test(l));
  });
  expect(unexplained).toEqual([]);
});
