// Written answers, one rule for every challenge (docs/decisions/008-grading-threat-model.md,
// "Written answers"): a challenge that asks a question declares in challenge.yaml what each part
// of the answer names (`answer:`), which of the deployment's values is the right one and where
// its candidates come from. The platform judges the answer before any check runs: it must name
// the right one of each kind and no other candidate of that kind (a list of every candidate is
// not an answer), and a deployment takes a few wrong answers before it must be reset for new
// values. The check judges the system only.
import type { AnswerPart } from "#server/library/challenges.ts";
import type { ScenarioValues } from "#server/runtime/scenario.ts";

/** Wrong answers a deployment takes before it must be reset (new values) to answer again. */
export const WRONG_ANSWERS_PER_DEPLOYMENT = 3;
export const WRONG_ANSWERS_USED_UP = `This deployment has had ${WRONG_ANSWERS_PER_DEPLOYMENT} wrong answers. Reset it to get a new incident, then investigate and answer again.`;

export type AnswerVerdict = { verdict: "right" } | { verdict: "wrong" | "ambiguous"; feedback: string };

/** The answer's words as a reader takes them: split at anything but letters, digits and
 *  `_ . / : @ -`, without a sentence's full stop, colon or comma, case-insensitive. */
export function answerWords(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_./:@-]+/gu, " ")
    .split(" ")
    .map((w) => w.replace(/[.:,]+$/, ""))
    .filter(Boolean);
  return new Set(words);
}

const PATTERNS: Record<string, RegExp> = {
  number: /^\d+$/,
  ipv4: /^(\d{1,3})(\.\d{1,3}){3}$/,
  cidr: /^(\d{1,3})(\.\d{1,3}){3}\/\d{1,2}$/,
  path: /^\/[^\s]*$/,
};
export const CANDIDATE_PATTERNS = Object.keys(PATTERNS) as [string, ...string[]];

/** How one candidate may be written: the value as it is, and (forms: basename) a path's last part. */
function spellings(value: string, forms: AnswerPart["forms"]): string[] {
  const v = value.trim().toLowerCase();
  const out = new Set<string>();
  for (const form of forms) {
    if (form === "as_is") out.add(v);
    if (form === "basename") out.add(v.replace(/\/+$/, "").split("/").pop() ?? v);
  }
  return [...out].filter(Boolean);
}

/** A value as a list: setup.sh prints lists as JSON arrays (kept as their JSON text) or as
 *  whitespace-separated words. */
function listOf(raw: string | undefined): string[] {
  if (!raw) return [];
  const text = raw.trim();
  if (text.startsWith("[")) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON after all: words.
    }
  }
  return text.split(/\s+/).filter(Boolean);
}

export function judgeAnswer(parts: AnswerPart[], values: ScenarioValues, submission: string): AnswerVerdict {
  const words = answerWords(submission);
  const named = (value: string, forms: AnswerPart["forms"]) => spellings(value, forms).some((s) => words.has(s));
  for (const part of parts) {
    const right = part.values.flatMap((key) => listOf(values[key]));
    if (!right.length) throw new Error(`answer part ${part.name}: setup gave no value for ${part.values.join(", ")}`);
    const rightSpellings = new Set(right.flatMap((v) => spellings(v, part.forms)));
    const others =
      "values" in part.candidates
        ? listOf(values[part.candidates.values]).filter((c) => !spellings(c, part.forms).some((s) => rightSpellings.has(s)) && named(c, part.forms))
        : [...words].filter((w) => PATTERNS[(part.candidates as { pattern: string }).pattern]!.test(w) && !rightSpellings.has(w));
    const rightNamed = right.some((v) => named(v, part.forms));
    if (others.length + (rightNamed ? 1 : 0) > 1)
      return { verdict: "ambiguous", feedback: `Your answer names more than one ${part.kind}: name only ${part.says}.` };
    if (!rightNamed) return { verdict: "wrong", feedback: `Your answer does not name ${part.says}.` };
  }
  return { verdict: "right" };
}

/** What the catalogue says about how a challenge's answer is judged. */
export function answerRules(parts: AnswerPart[]) {
  return parts.length ? { names: parts.map((p) => p.says), wrong_answers_allowed: WRONG_ANSWERS_PER_DEPLOYMENT } : null;
}
