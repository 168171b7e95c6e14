// No import cycles between our modules (docs/architecture.md, "What may import what"): a cycle
// makes the order modules start in depend on who imports first, and hides which room a rule
// belongs to. Type imports count too: two modules that need each other's types are one module
// in two files, or share a third (server/core/deployments/deps.ts). The graph is read from the
// sources with the TypeScript parser, so a comment or a string that looks like an import is not
// one.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const ROOMS = ["app", "server", "shared"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === "node_modules" ? [] : sources(p);
    return /\.(ts|tsx)$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) && !d.name.endsWith(".d.ts") ? [p] : [];
  });
}

/** The modules of this repository `file` imports or re-exports from, types included. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of sf.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st) || (ts.isExportDeclaration(st) && st.moduleSpecifier)) spec = st.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    if (spec.text.startsWith(".")) out.push(resolve(dirname(file), spec.text));
    // package.json "imports": #server/x.ts is <root>/server/x.ts (and #app/, #shared/).
    else if (/^#(app|server|shared)\//.test(spec.text)) out.push(join(ROOT, spec.text.slice(1)));
  }
  return out;
}

/** Strongly connected components of more than one module, or a module importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe("imports", () => {
  it("form no cycle in app/, server/ and shared/", () => {
    const files = ROOMS.flatMap((r) => sources(join(ROOT, r)));
    const graph = new Map(files.map((f) => [f, valueImports(f)]));
    const found = cycles(graph).map((c) => c.map((f) => relative(ROOT, f)));
    expect(found).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(g)).toEqual([["a", "b", "c"]]);
  });
});
