// Every command line of every grader, as the kernel starts it (argv-watch.py beside this file):
// the runtime proofs assert that none carries a deployment's values (decision 008: an expected
// answer or a fault's value never goes into a grader argument).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface ArgvWatch {
  /** The grader command lines seen so far for one deployment. */
  argvsOf(deploymentId: string): string[][];
  stop(): void;
}

export async function startArgvWatch(): Promise<ArgvWatch> {
  const child = spawn("python3", ["-I", "-S", join(import.meta.dirname, "argv-watch.py")], { stdio: ["pipe", "pipe", "inherit"] });
  const seen = new Map<string, string[][]>();
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`argv-watch.py exited (${code}): it needs root and the kernel's process connector`)));
    lines.on("line", (line) => {
      const event = JSON.parse(line) as { ready?: boolean; deployment?: string; argv?: string[] };
      if (event.ready) return resolve();
      if (!event.deployment || !event.argv) return;
      const list = seen.get(event.deployment) ?? [];
      list.push(event.argv);
      seen.set(event.deployment, list);
    });
  });
  return {
    argvsOf: (id) => seen.get(id) ?? [],
    stop: () => child.stdin.end(),
  };
}

/** The values (FL_*) a command line names: each word of three characters or more of each value,
 *  found as a whole word in an argument. */
export function valuesIn(argvs: string[][], values: Record<string, string>): { value: string; argv: string[] }[] {
  const words = [
    ...new Set(
      Object.values(values)
        .flatMap((v) => v.split(/[\s,"[\]]+/))
        .filter((w) => w.length >= 3),
    ),
  ];
  const found: { value: string; argv: string[] }[] = [];
  for (const argv of argvs) {
    for (const word of words) {
      const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (argv.some((a) => new RegExp(`(^|[^A-Za-z0-9])${escaped}($|[^A-Za-z0-9])`).test(a))) found.push({ value: word, argv });
    }
  }
  return found;
}
