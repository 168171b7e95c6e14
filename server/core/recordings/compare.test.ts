// The commands rebuilt from a recording's keys, as a line editor would see them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_LIMITS, commandsFromCast, commandsFromEvents, extractCommands, LineEditor, parseCast } from "./compare.ts";

const typed = (...chunks: string[]) => {
  const e = new LineEditor();
  for (const c of chunks) e.feed(c);
  return e.commands;
};

describe("commands from a recording", () => {
  it("rebuilds the fixture session: typos fixed, arrows, Ctrl-C, a pager, paste, Ctrl-W, history", () => {
    const cast = readFileSync(join(import.meta.dirname, "fixtures", "ledger-session.cast"), "utf8");
    expect(commandsFromCast(cast)).toEqual([
      "df -h /srv",
      "du -sh /srv",
      "lsof +L1",
      "less /var/log/x",
      ": > /proc/123/fd/4",
      "service ledgerd restart",
      "service ledgerd restart",
    ]);
  });

  it("Enter is the boundary, whether it comes as CR or LF, alone or in a chunk", () => {
    expect(typed("ls\rpwd\n", "id", "\r")).toEqual(["ls", "pwd", "id"]);
  });

  it("skips empty lines and a line never ended by Enter", () => {
    const e = new LineEditor();
    e.feed("\r\r   \rwhoami");
    expect(e.commands).toEqual([]);
    expect(e.pending).toBe("whoami");
  });

  it("backspace (DEL and BS) deletes before the cursor, never past the start", () => {
    expect(typed("lss\x7f -l\r", "\x7f\x7fab\bc\r")).toEqual(["ls -l", "ac"]);
  });

  it("Home/End, Ctrl-A/E, Delete and inserting in the middle", () => {
    expect(typed("echo world\x01\x1b[3~\x1b[3~\x1b[3~\x1b[3~printf\x05!\r")).toEqual(["printf world!"]);
    expect(typed("cat file\x1b[H\x1b[C\x1b[C\x1b[Cx\x1b[F2\r")).toEqual(["catx file2"]);
    expect(typed("ls\x1bOH#\x1bOF!\r")).toEqual(["#ls!"]);
  });

  it("Ctrl-U and Ctrl-K kill to the start and to the end", () => {
    expect(typed("rm -rf /\x15echo safe\r")).toEqual(["echo safe"]);
    expect(typed("echo one two\x1b[D\x1b[D\x1b[D\x0b\x1b[Fthree\r")).toEqual(["echo one three"]);
  });

  it("word moves: Ctrl-Left and Alt-B", () => {
    expect(typed("echo b c\x1b[1;5D\x1b[1;5Da \r")).toEqual(["echo a b c"]);
    expect(typed("echo b\x1bbx\r")).toEqual(["echo xb"]);
  });

  it("Up and Down recall the commands typed before, and a recalled line can be edited", () => {
    expect(typed("uptime\r", "free -m\r", "\x1b[A\x1b[A\r", "\x1b[A\x7f\x7fh\r")).toEqual(["uptime", "free -m", "uptime", "uptih"]);
    expect(typed("\x1b[A\rdate\r\x1b[A\x1b[B\r")).toEqual(["date"]);
  });

  it("bracketed paste: text inserted as is, a newline inside it ends a command", () => {
    expect(typed("\x1b[200~systemctl status\x7f\nls\x1b[201~\r")).toEqual(["systemctl status", "ls"]);
  });

  it("keys in a full-screen program (alternate screen) are not commands", () => {
    expect(
      commandsFromEvents([
        [0, "i", "vim /etc/hosts\r"],
        [0.1, "o", "\x1b[?1049h"],
        [0.2, "i", "ihello\x1b:wq\r"],
        [0.3, "o", "\x1b[?1049l$ "],
        [0.4, "i", "cat /etc/hosts\r"],
      ]),
    ).toEqual(["vim /etc/hosts", "cat /etc/hosts"]);
  });

  it("a recording cut mid-line at its size bound still gives the commands before", () => {
    const cast = '{"version":2,"width":80,"height":24}\n[0.1,"i","ls\\r"]\n[0.2,"i","ech';
    expect(parseCast(cast)).toEqual([[0.1, "i", "ls\r"]]);
    expect(commandsFromCast(cast)).toEqual(["ls"]);
  });

  it("unknown control characters and escape sequences edit nothing; tab is left to the shell", () => {
    expect(typed("l\x00s\x1b[15~\x1b[I\t -a\r")).toEqual(["ls -a"]);
  });
});

// What a player typed is hostile input: the work is bounded by the input's length
// (never by what the keys ask for), and so is what comes out. The work counter counts every
// character the editor moves or copies: the bound is checked on it, not on a clock.
describe("hostile input", () => {
  const { workBase, workPerChar, commandChars, maxCommands, lineChars } = COMMAND_LIMITS;
  const cast = (...inputs: string[]) => ['{"version":2}', ...inputs.map((i) => JSON.stringify([0.1, "i", i]))].join("\n");
  const feed = (...inputs: string[]) => {
    const e = new LineEditor();
    for (const i of inputs) e.feed(i);
    return e;
  };
  const withinBound = (e: LineEditor) => expect(e.work).toBeLessThanOrEqual(workBase + workPerChar * e.fed + lineChars);

  it("the review's payload (a 300,000-character command, then 40,000 Up/Down pairs) costs work linear in it, and the command is cut", () => {
    const e = feed(
      "a".repeat(300_000) + "\r",
      ..."x"
        .repeat(400)
        .split("")
        .map(() => "\x1b[A\x1b[B".repeat(100)),
    );
    withinBound(e);
    // Up/Down copy nothing: the 80,000 recalls cost a few units each (a copy each would be
    // 4,096 units: 3·10^8 in all).
    expect(e.work).toBeLessThan(2 * e.fed);
    const out = extractCommands(cast("a".repeat(300_000) + "\r", "\x1b[A\x1b[B".repeat(1000)));
    expect(out.commands).toEqual([`${"a".repeat(commandChars - 1)}…`]);
  });

  it("typing with the cursor at the start (Ctrl-A before each key) costs O(1) per key, not a move of the line", () => {
    const e = feed(Array.from({ length: 3000 }, (_, i) => `\x01${i % 10}`).join("") + "\r");
    withinBound(e);
    expect(e.commands[0]).toHaveLength(3000);
    expect(e.commands[0]!.startsWith("9876543210")).toBe(true);
  });

  it("Home/End over a long line, again and again: the rebuilding stops at the work bound and says so", () => {
    const e = feed(
      "b".repeat(4000),
      ..."x"
        .repeat(300)
        .split("")
        .map(() => "\x01\x05".repeat(200)),
    );
    expect(e.cut).toBe(true);
    withinBound(e);
    const out = extractCommands(
      cast(
        "ls\r",
        "b".repeat(4000),
        ..."x"
          .repeat(300)
          .split("")
          .map(() => "\x01\x05".repeat(200)),
        "\rpwd\r",
      ),
    );
    expect(out).toEqual({ commands: ["ls"], cut: true });
  });

  it("recalling a long command and editing it, again and again, is bounded too", () => {
    const e = feed(
      "c".repeat(4000) + "\r",
      ..."x"
        .repeat(300)
        .split("")
        .map(() => "\x1b[Ax\x03".repeat(100)),
    );
    withinBound(e);
    expect(e.cut).toBe(true);
  });

  it("word moves over a long word are bounded", () => {
    const e = feed(
      "d".repeat(4000),
      ..."x"
        .repeat(300)
        .split("")
        .map(() => "\x1bb\x1bf".repeat(100)),
    );
    withinBound(e);
    expect(e.cut).toBe(true);
  });

  it("the line holds at most LINE_CHARS characters; a command comes out with at most COMMAND_CHARS", () => {
    const e = feed("e".repeat(lineChars + 500) + "\x01#\r");
    expect(e.commands[0]).toHaveLength(lineChars);
    expect(extractCommands(cast("f".repeat(2000) + "\r")).commands[0]).toHaveLength(commandChars);
  });

  it("at most MAX_COMMANDS commands come out of one recording", () => {
    const out = extractCommands(cast(Array.from({ length: maxCommands + 50 }, (_, i) => `echo ${i}\r`).join("")));
    expect(out.commands).toHaveLength(maxCommands);
    expect(out.commands.at(-1)).toBe(`echo ${maxCommands - 1}`);
    expect(out.cut).toBe(true);
  });

  it("an ordinary session costs a few units of work per character", () => {
    const text = readFileSync(join(import.meta.dirname, "fixtures", "ledger-session.cast"), "utf8");
    const e = new LineEditor();
    for (const [, kind, data] of parseCast(text)) if (kind === "i") e.feed(data);
    expect(e.work).toBeLessThan(4 * e.fed);
    expect(extractCommands(text).cut).toBe(false);
  });
});
