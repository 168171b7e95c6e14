// The logger's bounds (docs/decisions/016-per-user-bounds.md): a line carrying what a player wrote
// holds at most LINE_CHARS characters, in text and in JSON (still one JSON object); the lines share
// a budget of bytes per second, lines past it are dropped and the next line written says how many.
import { describe, expect, it } from "vitest";
import { createLogger, LINE_CHARS } from "./logger.ts";

describe("logger bounds", () => {
  it("cuts a long message or long fields, in text and JSON", () => {
    const got: string[] = [];
    const text = createLogger("info", "text", (l) => got.push(l));
    text.info("x".repeat(100_000));
    text.warn("fields", { payload: "y".repeat(100_000) });
    const json = createLogger("info", "json", (l) => got.push(l));
    json.info("z".repeat(100_000), { payload: "w".repeat(100_000) });
    json.error("boom", new Error("e".repeat(100_000)));
    for (const line of got) expect(line.length).toBeLessThanOrEqual(LINE_CHARS + 100);
    expect(got[0]).toMatch(/characters cut\)$/);
    const parsed = JSON.parse(got[2]!);
    expect(parsed.msg).toMatch(/^z+… \(\d+ characters cut\)$/);
    expect(typeof parsed.fields).toBe("string");
    expect(JSON.parse(got[3]!).err.message).toMatch(/characters cut/);
  });

  it("drops lines past the byte budget and says how many went", () => {
    let now = 0;
    const got: string[] = [];
    const log = createLogger("info", "text", (l) => got.push(l), { bytesPerSecond: 1000, burstBytes: 2000, clock: () => now });
    for (let i = 0; i < 100; i++) log.info(`line ${i} ${"p".repeat(50)}`);
    const written = got.length;
    expect(written).toBeGreaterThan(10);
    expect(written).toBeLessThan(40);
    now += 1000;
    log.info("after a second");
    expect(got.at(-2)).toMatch(new RegExp(`log: ${100 - written} line\\(s\\) dropped`));
    expect(got.at(-1)).toMatch(/after a second$/);
  });
});
