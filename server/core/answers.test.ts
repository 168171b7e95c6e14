import { describe, expect, it } from "vitest";
import type { AnswerPart } from "#server/library/challenges.ts";
import { answerRules, answerWords, judgeAnswer } from "./answers.ts";

const account: AnswerPart = {
  name: "account",
  says: "the account whose token leaked",
  kind: "account",
  values: ["account"],
  candidates: { values: "accounts" },
  forms: ["as_is"],
};
const file: AnswerPart = {
  name: "file",
  says: "the file the token leaked from",
  kind: "file",
  values: ["leak"],
  candidates: { values: "files" },
  forms: ["as_is", "basename"],
};
const pid: AnswerPart = {
  name: "pid",
  says: "the PID of the process that held the lock",
  kind: "PID",
  values: ["holder_pid"],
  candidates: { pattern: "number" },
  forms: ["as_is"],
};
const values = {
  account: "svc-billing",
  accounts: "svc-billing ops-ana deploy monitor",
  leak: "/home/ops-ana/.bash_history",
  files: JSON.stringify(["/home/ops-ana/.bash_history", "/var/log/billing/debug.log", "/srv/runbook.md"]),
  holder_pid: "4242",
};

describe("written answers (one rule for every challenge)", () => {
  it("reads words as a person writes them: case, punctuation, a sentence's full stop", () => {
    expect([...answerWords("It was svc-billing. Token in /home/ops-ana/.bash_history, rotated!")]).toEqual(
      expect.arrayContaining(["svc-billing", "/home/ops-ana/.bash_history", "rotated"]),
    );
    expect(answerWords("PID 4242: held it").has("4242")).toBe(true);
  });

  it("accepts the right one of each kind, in any of its forms", () => {
    expect(judgeAnswer([account, file], values, "The token of SVC-BILLING leaked from .bash_history; I rotated it.")).toEqual({ verdict: "right" });
    expect(judgeAnswer([account, file], values, "svc-billing, via /home/ops-ana/.bash_history")).toEqual({ verdict: "right" });
  });

  it("says which part is missing, never the value", () => {
    const r = judgeAnswer([account, file], values, "svc-billing, I cleaned it up");
    expect(r).toEqual({ verdict: "wrong", feedback: "Your answer does not name the file the token leaked from." });
    expect(JSON.stringify(r)).not.toContain("bash_history");
    expect(judgeAnswer([account], values, "it was ops-ana")).toMatchObject({ verdict: "wrong" });
  });

  it("refuses a list of every candidate, whatever the right one's place in it", () => {
    expect(judgeAnswer([account], values, "svc-billing ops-ana deploy monitor")).toEqual({
      verdict: "ambiguous",
      feedback: "Your answer names more than one account: name only the account whose token leaked.",
    });
    expect(judgeAnswer([file], values, "debug.log or .bash_history")).toMatchObject({ verdict: "ambiguous" });
    // A pattern kind: every number is a candidate PID.
    const every = Array.from({ length: 3400 }, (_, i) => String(i + 1)).join(" ");
    expect(judgeAnswer([pid], values, every)).toMatchObject({ verdict: "ambiguous" });
    expect(judgeAnswer([pid], values, "pid 4242")).toEqual({ verdict: "right" });
    expect(judgeAnswer([pid], values, "pid 4243")).toMatchObject({ verdict: "wrong" });
  });

  it("a word that only contains a candidate is not the candidate", () => {
    expect(judgeAnswer([account], values, "svc-billing-old")).toMatchObject({ verdict: "wrong" });
    expect(judgeAnswer([account], { ...values, accounts: "svc-billing ops" }, "svc-billing in ops-team")).toEqual({ verdict: "right" });
  });

  it("the catalogue says what the answer must name and how many wrong answers a deployment takes", () => {
    expect(answerRules([account, file])).toEqual({ names: ["the account whose token leaked", "the file the token leaked from"], wrong_answers_allowed: 3 });
    expect(answerRules([])).toBeNull();
  });
});
