// The commands rebuilt from a recording's keys, as a line editor would see them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandsFromCast, commandsFromEvents, LineEditor, parseCast } from "./compare.ts";

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
