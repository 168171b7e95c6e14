// The challenge catalogue on disk: challenges/<slug>/{challenge.yaml, Dockerfile, setup.sh,
// check.sh, solution.sh}. challenge.yaml is validated with zod; a broken folder fails loudly with
// the file and field named, so content errors show up in CI rather than at a user's start.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { BADGES, CATEGORIES, DIFFICULTIES, type Difficulty } from "#shared/contract/index.ts";
import { CHALLENGE_ID_PATTERN } from "#shared/rules.ts";
import { challengeImage } from "#server/runtime/images.ts";
import { defaultWritable, extraCapabilities, parseSize } from "#server/runtime/policy.ts";
import type { Limits, WritableDir } from "#server/runtime/types.ts";

const size = z.union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*[kmgKMG]?i?[bB]?$/, "must be a size like 64m")]);

/** Kinds of words an answer part's candidates may be told by, when setup.sh cannot list them. */
export const CANDIDATE_PATTERNS = ["number", "ipv4", "cidr", "path"] as const;

/** One thing the written answer must name (server/core/answers.ts judges it). */
const answerPart = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]+$/, "lower-case words and underscores"),
  /** What it names, as feedback and the catalogue say it: "the account whose token leaked". */
  says: z.string().min(5).max(120),
  /** What its candidates are, in one word or two: "account" ("names more than one account"). */
  kind: z.string().min(2).max(40),
  /** setup.sh's value(s) holding the right one; with several, naming any one of them is right
   *  (a program's name or its path). */
  value: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  /** Where the other candidates come from: a value of setup.sh listing every candidate (JSON
   *  array or words), or a kind of word (every such word of the answer is a candidate). */
  candidates: z.union([z.strictObject({ values: z.string().min(1) }), z.strictObject({ pattern: z.enum(CANDIDATE_PATTERNS) })]),
  /** How a candidate may be written: as it is, and/or (paths) its last part. */
  forms: z
    .array(z.enum(["as_is", "basename"]))
    .min(1)
    .default(["as_is"]),
});
/** Classes of fake every challenge is proven against where they apply (decision 008): hidden
 *  text where the program reads it but a naive comparison skips it as a comment; an ACL that
 *  grants what the mode bits deny; a sparse oversize copy of what must not be readable; a fix
 *  of the live system only, which a boot undoes; an answer only the grader gets. */
export const FAKE_CLASSES = ["comment", "acl", "sparse", "boot", "grader-only"] as const;
export type FakeClass = (typeof FAKE_CLASSES)[number];

export type AnswerPart = Omit<z.infer<typeof answerPart>, "value"> & { values: string[] };

export const challengeYaml = z.strictObject({
  title: z.string().min(3).max(120),
  category: z.enum(CATEGORIES),
  difficulty: z.enum(DIFFICULTIES),
  points: z.number().int().positive().max(10_000),
  estimated_time_minutes: z.number().int().positive().max(600).default(30),
  short_description: z.string().max(300).optional(),
  description: z.string().min(10),
  instructions: z.string().default(""),
  /** A hint is its text, or {text, cost}: the points it costs, deducted only if and when the
   *  challenge is solved (server/core/hints.ts); default HINT_COST_SHARE of the points. */
  hints: z.array(z.union([z.string().min(1), z.strictObject({ text: z.string().min(1), cost: z.number().int().min(0).max(10_000) })])).default([]),
  /** The root cause in a few sentences, shown only after solving (the success screen). */
  debrief: z.string().min(10).max(2000).optional(),
  /** The reference fix as a person would do it, step by step, shown beside the player's own
   *  commands after solving (solution.sh is the script CI runs; these are for people). */
  solution_steps: z.array(z.string().min(1).max(300)).max(20).default([]),
  tags: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case words and dashes")).default([]),
  /** A catalogue card's ribbon, kept in content (never hard-coded by id in the web). */
  badge: z.enum(BADGES).optional(),
  /** A line about the real-world incident the scenario is modelled on, shown on the card. */
  incident_note: z.string().min(10).max(300).optional(),
  runtime: z
    .strictObject({
      hostname: z
        .string()
        .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "a host name")
        .default("box"),
      user: z.string().default("root"),
      memory: size.optional(),
      cpus: z.number().positive().max(4).optional(),
      pids: z.number().int().positive().optional(),
      /** Sizes of writable directories: overrides of the defaults, or new ones. */
      writable: z.record(z.string().regex(/^\/[^\0]+$/, "an absolute path"), size).default({}),
      capabilities: z.array(z.enum(extraCapabilities as [string, ...string[]])).default([]),
    })
    .default({ hostname: "box", user: "root", writable: {}, capabilities: [] }),
  check: z
    .strictObject({
      /** The check always runs in a grader container beside the target (scenario.ts). */
      timeout_seconds: z.number().int().positive().max(300).default(30),
    })
    .default({ timeout_seconds: 30 }),
  /** Classes of fake (docs/decisions/008-grading-threat-model.md, "Fakes by class") that cannot
   *  apply to this challenge, each with the reason; every other class needs a fake of its own in
   *  fakes/<class>-*.sh (tests/runtime/proofs.test.ts). */
  not_applicable_fakes: z.partialRecord(z.enum(FAKE_CLASSES), z.string().min(10)).default({}),
  /** The written answer's parts (a story that asks a question): judged by the platform before
   *  the check runs (server/core/answers.ts), the same rule for every challenge. */
  answer: z.array(answerPart).max(4).default([]),
  /** Names of the faults setup.sh can pick (FAULTLINE_FAULT forces one): the tests run each. */
  variants: z.array(z.string().regex(/^[a-z0-9_]+$/, "lower-case words and underscores")).default([]),
  setup: z.strictObject({ timeout_seconds: z.number().int().positive().max(600).default(60) }).default({ timeout_seconds: 60 }),
  /** The boot of a copy of the deployment's disk that grading checks after the live system
   *  (server/runtime/grader/boot.sh): how long every start-up script together may take. */
  boot: z
    .strictObject({
      timeout_seconds: z.number().int().positive().max(120).default(30),
      /** What the target runs at boot or shutdown must be as installed (fl.py's boot_files, before
       *  every check) but for these files, which the challenge's check judges itself: a defaults
       *  file setup writes, or one the fix changes. */
      exempt: z
        .array(
          z
            .string()
            .regex(
              /^\/etc\/(default|init\.d|rc[0-6S]\.d)\/[\w.@+-]+$|^\/etc\/rc\.local$/,
              "must be a file under /etc/default, /etc/init.d or /etc/rc?.d, or /etc/rc.local",
            ),
        )
        .default([]),
    })
    .default({ timeout_seconds: 30, exempt: [] }),
  /** Warm deployments of this challenge kept made and set up ahead of any start (the warm pool,
   *  docs/decisions/011-warm-pool.md); overrides WARM_POOL_SIZE for this challenge, 0 opts out. */
  pool: z.number().int().min(0).max(10).optional(),
});

export interface Challenge {
  /** The folder name; the challenge's uid in the API. */
  id: string;
  dir: string;
  title: string;
  category: string;
  difficulty: Difficulty;
  points: number;
  estimatedTimeMinutes: number;
  shortDescription: string;
  description: string;
  instructions: string;
  hints: Hint[];
  debrief: string;
  solutionSteps: string[];
  tags: string[];
  badge?: "trending" | "new" | "popular";
  incidentNote?: string;
  image: string;
  hostname: string;
  user: string;
  limits: Partial<Limits>;
  writable: WritableDir[];
  capabilities: string[];
  check: { timeoutSeconds: number; script: string };
  /** The story asks a question: the written answer is judged (challenge.yaml answer:). */
  asksForAnswer: boolean;
  /** What the written answer must name (challenge.yaml answer:), judged by the platform. */
  answer: AnswerPart[];
  /** Classes of fake that cannot apply, with the reason (challenge.yaml not_applicable_fakes). */
  notApplicableFakes: Partial<Record<FakeClass, string>>;
  /** Faults setup.sh can be forced to pick (FAULTLINE_FAULT), each proven by the tests. */
  variants: string[];
  setup: { timeoutSeconds: number; script: string };
  boot: { timeoutSeconds: number; exempt: string[] };
  /** inspect.sh (optional): asks the image's programs about the configuration of a copy of the
   *  deployment's disk before it boots; check.sh gets its output as FL_INSPECTION (boot phase). */
  inspect: string;
  /** Size of its warm pool from challenge.yaml `pool:`; undefined: the platform's WARM_POOL_SIZE. */
  pool?: number;
  solution: { script: string };
  /** fakes/*.sh (and fakes/after-fix/*.sh, run after solution.sh): what a hostile root user would
   *  try instead of a fix; each must be refused (tests/runtime/proofs.test.ts). Never in the
   *  image, never sent to a deployment but in tests. */
  fakes: { name: string; script: string }[];
}

export interface Hint {
  text: string;
  /** Points deducted from the challenge's if and when it is solved. */
  cost: number;
}

/** A hint without its own `cost` costs this share of the challenge's points, rounded. */
export const HINT_COST_SHARE = 0.1;
export const defaultHintCost = (points: number) => Math.round(points * HINT_COST_SHARE);

export class ChallengeError extends Error {}

export function loadChallenge(dir: string, id: string): Challenge {
  const file = join(dir, "challenge.yaml");
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ChallengeError(`${file}: ${(e as Error).message}`);
  }
  const parsed = challengeYaml.safeParse(raw);
  if (!parsed.success) {
    throw new ChallengeError(`${file}:\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}`);
  }
  const y = parsed.data;
  const script = (name: string, required: boolean) => {
    const p = join(dir, name);
    if (!existsSync(p)) {
      if (required) throw new ChallengeError(`${dir}: ${name} is missing`);
      return "";
    }
    return readFileSync(p, "utf8");
  };
  for (const f of ["Dockerfile"]) if (!existsSync(join(dir, f))) throw new ChallengeError(`${dir}: ${f} is missing`);

  const writable = defaultWritable.map((w) => ({ ...w }));
  for (const [path, s] of Object.entries(y.runtime.writable)) {
    const bytes = parseSize(s);
    const existing = writable.find((w) => w.path === path);
    if (existing) existing.sizeBytes = bytes;
    else writable.push({ path, sizeBytes: bytes });
  }
  const description = y.description.trim();
  return {
    id,
    dir,
    title: y.title,
    category: y.category,
    difficulty: y.difficulty,
    points: y.points,
    estimatedTimeMinutes: y.estimated_time_minutes,
    shortDescription: y.short_description?.trim() ?? (description.length > 100 ? `${description.slice(0, 100)}…` : description),
    description,
    instructions: y.instructions.trim(),
    hints: y.hints.map((h) => (typeof h === "string" ? { text: h, cost: defaultHintCost(y.points) } : h)),
    debrief: y.debrief?.trim() ?? "",
    solutionSteps: y.solution_steps.map((step) => step.trim()),
    tags: y.tags,
    ...(y.badge ? { badge: y.badge } : {}),
    ...(y.incident_note ? { incidentNote: y.incident_note.trim() } : {}),
    image: challengeImage(id),
    hostname: y.runtime.hostname,
    user: y.runtime.user,
    limits: {
      ...(y.runtime.memory !== undefined ? { memoryBytes: parseSize(y.runtime.memory) } : {}),
      ...(y.runtime.cpus !== undefined ? { cpus: y.runtime.cpus } : {}),
      ...(y.runtime.pids !== undefined ? { pids: y.runtime.pids } : {}),
    },
    writable,
    capabilities: y.runtime.capabilities,
    check: { timeoutSeconds: y.check.timeout_seconds, script: script("check.sh", true) },
    asksForAnswer: y.answer.length > 0,
    notApplicableFakes: y.not_applicable_fakes,
    answer: y.answer.map(({ value, ...part }) => ({ ...part, values: typeof value === "string" ? [value] : value })),
    variants: y.variants,
    setup: { timeoutSeconds: y.setup.timeout_seconds, script: script("setup.sh", false) },
    boot: { timeoutSeconds: y.boot.timeout_seconds, exempt: y.boot.exempt },
    inspect: script("inspect.sh", false),
    ...(y.pool !== undefined ? { pool: y.pool } : {}),
    solution: { script: script("solution.sh", true) },
    fakes: loadFakes(dir, script("solution.sh", true)),
  };
}

/** fakes/*.sh as they are, and fakes/after-fix/*.sh each after the reference fix, in the same
 *  shell (it may use what solution.sh defined): the tricks played on a repaired system without
 *  a copy of the repair in every file. fakes/lib.sh (optional, not a fake) runs in the same shell
 *  right before each fake: what several of them share, written once. */
function loadFakes(dir: string, solution: string): Challenge["fakes"] {
  const read = (sub: string) => {
    const at = join(dir, sub);
    return existsSync(at)
      ? readdirSync(at)
          .filter((f) => f.endsWith(".sh") && !(sub === "fakes" && f === "lib.sh"))
          .sort()
          .map((f) => ({ name: f.replace(/\.sh$/, ""), text: readFileSync(join(at, f), "utf8") }))
      : [];
  };
  const libAt = join(dir, "fakes", "lib.sh");
  const lib = existsSync(libAt) ? `${readFileSync(libAt, "utf8")}\n# ---- the fake (fakes/lib.sh above)\n` : "";
  const fakes = [
    ...read("fakes").map(({ name, text }) => ({ name, script: `${lib}${text}` })),
    ...read("fakes/after-fix").map(({ name, text }) => ({
      name,
      script: `${solution}\n# ---- the fake, after the reference fix (fakes/after-fix/${name}.sh)\n${lib}${text}`,
    })),
  ];
  const names = fakes.map((f) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new ChallengeError(`${dir}: two fakes named ${twice}`);
  return fakes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const CHALLENGES_DIR = join(import.meta.dirname, "..", "..", "challenges");

/** Every folder of `dir` that has a challenge.yaml, sorted by id; a folder that does not load is
 *  reported in `problems` (its file and field named) and leaves the others in service. */
export function loadLibrary(dir = CHALLENGES_DIR): { challenges: Challenge[]; problems: ChallengeError[] } {
  const challenges: Challenge[] = [];
  const problems: ChallengeError[] = [];
  if (!existsSync(dir)) return { challenges, problems };
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory() || !CHALLENGE_ID_PATTERN.test(d.name) || !existsSync(join(dir, d.name, "challenge.yaml"))) continue;
    try {
      challenges.push(loadChallenge(join(dir, d.name), d.name));
    } catch (e) {
      problems.push(e instanceof ChallengeError ? e : new ChallengeError(`${join(dir, d.name)}: ${(e as Error).message}`));
    }
  }
  challenges.sort((a, b) => a.id.localeCompare(b.id));
  return { challenges, problems };
}

/** The whole library, refusing any broken folder (tests and the image build want all or nothing). */
export function loadChallenges(dir = CHALLENGES_DIR): Challenge[] {
  const { challenges, problems } = loadLibrary(dir);
  if (problems.length) throw new ChallengeError(problems.map((p) => p.message).join("\n"));
  return challenges;
}
