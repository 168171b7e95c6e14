// "Compare": the commands a player typed, in order, rebuilt from an asciicast v2
// recording's "i" (input) events the way a line editor (bash's readline) would: printable text
// inserted at the cursor, backspace and delete, arrows and Home/End, the usual Ctrl keys
// (C, U, K, W, A, E), bracketed paste, and Up/Down recalling the commands typed before in the
// same shell. Enter ends a command. Keys typed while a full-screen program holds the terminal
// (vim, less, top: the output switched to the alternate screen) are not commands and are skipped.
// Tab completion happens in the shell, not in the keys: the completed part is not in the input,
// so a completed word shows as typed.
//
// What a player typed is hostile input, so the cost is bounded by the input, not
// by what the keys ask for (docs/decisions/016-per-user-bounds.md):
// - the line is a gap buffer (the characters before the cursor, and those after it in reverse),
//   so typing and deleting at the cursor cost O(1) wherever the cursor is: never a splice;
// - a recalled command is not copied until it is edited: Up/Down cost O(1);
// - the line holds at most LINE_CHARS characters (more is dropped, as a terminal's own line
//   buffer would), so a jump (Home, End, a word move) or the first edit of a recalled line
//   moves at most that many;
// - every character moved counts as work, and the work may not pass WORK_BASE + WORK_PER_CHAR
//   per input character: keys whose only point is to cost (Home/End over a long line, again and
//   again) stop the rebuilding, which keeps the commands found so far and says it was cut;
// - at most MAX_COMMANDS commands, each at most COMMAND_CHARS characters, come out.
// This runs once per recording, in a worker thread (extract-thread.ts), never per request.
// Over 350 lines: the compare view's alignment of two recordings in one pass, with the steps it
//  reads.

export type CastEvent = [time: number, kind: string, data: string];

/** What comes out of one recording: bounded whatever went in. */
export const COMMAND_LIMITS = {
  /** Commands kept per recording. */
  maxCommands: 1000,
  /** Characters kept per command (a longer one ends with "…"). */
  commandChars: 500,
  /** Characters the line being typed may hold. */
  lineChars: 4096,
  /** Work allowed per input character, and once for any input. */
  workPerChar: 16,
  workBase: 1_000_000,
} as const;

export interface Extracted {
  commands: string[];
  /** True when the commands stop short: a bound was reached (count, work) or time ran out. */
  cut: boolean;
}

/** The events of an asciicast v2 text: a JSON header line, then one JSON array per line. Lines
 *  that do not parse (a recording cut at its size bound mid-line) are skipped. */
export function parseCast(text: string): CastEvent[] {
  const events: CastEvent[] = [];
  const lines = text.split("\n");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    try {
      const e = JSON.parse(line) as unknown;
      if (Array.isArray(e) && typeof e[0] === "number" && typeof e[1] === "string" && typeof e[2] === "string") events.push([e[0], e[1], e[2]]);
    } catch {
      // A truncated last line: the rest of the recording still counts.
    }
  }
  return events;
}

const ALT_SCREEN = /\x1b\[\?(?:1049|1047|47)([hl])/g;

/** Whether the output leaves the terminal in the alternate screen (after starting as `was`):
 *  the last switch in it wins. */
function altScreenAfter(was: boolean, output: string): boolean {
  let on = was;
  for (const m of output.matchAll(ALT_SCREEN)) on = m[1] === "h";
  return on;
}

/** [A-Za-z0-9_], without a regular expression per character. */
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const k = c.charCodeAt(0);
  return (k >= 48 && k <= 57) || (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || k === 95;
}

/** A line editor fed key by key; `commands` collects each line ended by Enter. */
export class LineEditor {
  readonly commands: string[] = [];
  /** Characters moved or copied so far: the measure the work bound applies to. */
  work = 0;
  /** Input characters fed so far. */
  fed = 0;
  /** Set once a bound stopped the rebuilding; later input is ignored. */
  cut = false;
  /** Before the cursor, in order. */
  private left: string[] = [];
  /** After the cursor, in reverse order (the character under the cursor is last). */
  private right: string[] = [];
  /** A recalled command not edited yet: the line is exactly this, the cursor at its end. */
  private recalled: string | null = null;
  /** Position in `commands` while browsing history with Up/Down (commands.length = the new line). */
  private browsing = 0;
  private pasting = false;

  constructor(private readonly limits: typeof COMMAND_LIMITS = COMMAND_LIMITS) {}

  /** Feeds raw input (as the terminal sent it). */
  feed(input: string): void {
    if (this.cut) return;
    this.fed += input.length;
    let i = 0;
    while (i < input.length && !this.cut) {
      const ch = input[i]!;
      if (ch === "\x1b") {
        i = this.escape(input, i);
        this.checkWork();
        continue;
      }
      i += 1;
      this.key(ch);
      this.checkWork();
    }
  }

  /** A line still being typed when the recording ended (never ended by Enter). */
  get pending(): string {
    return this.text();
  }

  private key(ch: string) {
    if (this.pasting) {
      if (ch === "\r" || ch === "\n") this.enter();
      else if ((ch >= " " && ch !== "\x7f") || ch === "\t") this.insert(ch);
      return;
    }
    switch (ch) {
      case "\r":
      case "\n":
        this.enter();
        break;
      case "\x7f":
      case "\b":
        this.edit().left.pop();
        break;
      case "\x03": // Ctrl-C: the line is abandoned.
        this.reset();
        break;
      case "\x15": // Ctrl-U: kill to the start.
        this.edit().left.length = 0;
        break;
      case "\x0b": // Ctrl-K: kill to the end.
        this.edit().right.length = 0;
        break;
      case "\x17": // Ctrl-W: the word before the cursor.
        this.killWordBack();
        break;
      case "\x01": // Ctrl-A
        this.home();
        break;
      case "\x05": // Ctrl-E
        this.end();
        break;
      case "\x02": // Ctrl-B
        this.back();
        break;
      case "\x06": // Ctrl-F
        this.forward();
        break;
      case "\x04": // Ctrl-D: delete under the cursor (on an empty line the shell exits).
        this.edit().right.pop();
        break;
      case "\x10": // Ctrl-P / Ctrl-N: history, like the arrows.
        this.history(-1);
        break;
      case "\x0e":
        this.history(1);
        break;
      case "\t": // Completion happens in the shell; the keys do not carry its result.
        break;
      default:
        if (ch >= " ") this.insert(ch);
    }
  }

  private checkWork() {
    if (this.work > this.limits.workBase + this.limits.workPerChar * this.fed) this.cut = true;
  }

  /** The line made editable: a recalled command becomes characters (once, at most LINE_CHARS). */
  private edit(): this {
    if (this.recalled !== null) {
      this.left = Array.from(this.recalled.slice(0, this.limits.lineChars));
      this.right = [];
      this.work += this.left.length;
      this.recalled = null;
    }
    this.work += 1;
    return this;
  }

  private text(): string {
    if (this.recalled !== null) return this.recalled;
    let after = "";
    for (let j = this.right.length - 1; j >= 0; j--) after += this.right[j];
    this.work += this.left.length + this.right.length;
    return this.left.join("") + after;
  }

  private insert(ch: string) {
    this.edit();
    if (this.left.length + this.right.length < this.limits.lineChars) this.left.push(ch);
  }

  private home() {
    this.edit();
    this.work += this.left.length;
    while (this.left.length) this.right.push(this.left.pop()!);
  }

  private end() {
    this.edit();
    this.work += this.right.length;
    while (this.right.length) this.left.push(this.right.pop()!);
  }

  private back() {
    this.edit();
    if (this.left.length) this.right.push(this.left.pop()!);
  }

  private forward() {
    this.edit();
    if (this.right.length) this.left.push(this.right.pop()!);
  }

  private enter() {
    const cmd = this.text().trim();
    if (cmd) {
      if (this.commands.length >= this.limits.maxCommands) {
        this.cut = true;
        return;
      }
      this.commands.push(cmd);
    }
    this.reset();
  }

  private reset() {
    this.left = [];
    this.right = [];
    this.recalled = null;
    this.browsing = this.commands.length;
  }

  private history(step: number) {
    const to = Math.min(this.commands.length, Math.max(0, this.browsing + step));
    if (to === this.browsing) return;
    this.browsing = to;
    this.left = [];
    this.right = [];
    this.recalled = this.commands[to] ?? "";
    this.work += 1;
  }

  private killWordBack() {
    const { left } = this.edit();
    while (left.length && left[left.length - 1] === " ") left.pop();
    while (left.length && left[left.length - 1] !== " ") left.pop();
    // Each character popped was pushed once: paid for by its insertion.
  }

  private wordMove(dir: -1 | 1) {
    const { left, right } = this.edit();
    const [from, to] = dir < 0 ? [left, right] : [right, left];
    let moved = 0;
    while (from.length && !isWordChar(from[from.length - 1])) {
      to.push(from.pop()!);
      moved += 1;
    }
    while (from.length && isWordChar(from[from.length - 1])) {
      to.push(from.pop()!);
      moved += 1;
    }
    this.work += moved;
  }

  /** Handles the escape sequence starting at `i`; returns the index after it. */
  private escape(s: string, i: number): number {
    const next = s[i + 1];
    if (next === "[" || next === "O") {
      // CSI (ESC [ params final) or SS3 (ESC O final).
      let j = i + 2;
      while (j < s.length && /[0-9;?]/.test(s[j]!)) j += 1;
      this.work += j - i;
      const final = s[j];
      if (final === undefined) return s.length;
      this.csi(s.slice(i + 2, Math.min(j, i + 34)), final);
      return j + 1;
    }
    if (next === "b")
      this.wordMove(-1); // Alt-B / Alt-F
    else if (next === "f") this.wordMove(1);
    else if (next === "\x7f") this.killWordBack(); // Alt-Backspace
    return next === undefined ? s.length : i + 2;
  }

  private csi(params: string, final: string) {
    if (final === "~") {
      if (params === "200") this.pasting = true;
      else if (params === "201") this.pasting = false;
      else if (params === "3")
        this.edit().right.pop(); // Delete
      else if (params === "1" || params === "7") this.home();
      else if (params === "4" || params === "8") this.end();
      return;
    }
    // Ctrl-Left / Ctrl-Right arrive as ESC [ 1 ; 5 D / C.
    const word = params.endsWith(";5") || params.endsWith(";3");
    switch (final) {
      case "D":
        if (word) this.wordMove(-1);
        else this.back();
        break;
      case "C":
        if (word) this.wordMove(1);
        else this.forward();
        break;
      case "H":
        this.home();
        break;
      case "F":
        this.end();
        break;
      case "A":
        this.history(-1);
        break;
      case "B":
        this.history(1);
        break;
      default:
      // Other sequences (focus, function keys) edit nothing.
    }
  }
}

/** A command as stored and shown: at most COMMAND_CHARS characters. */
const shown = (cmd: string, max: number) => (cmd.length > max ? `${cmd.slice(0, max - 1)}…` : cmd);

/** The commands typed in one recording's events, in order, within COMMAND_LIMITS. */
export function extractFromEvents(events: CastEvent[], limits: typeof COMMAND_LIMITS = COMMAND_LIMITS): Extracted {
  const editor = new LineEditor(limits);
  let fullScreen = false;
  for (const [, kind, data] of events) {
    if (editor.cut) break;
    if (kind === "o") fullScreen = altScreenAfter(fullScreen, data);
    else if (kind === "i" && !fullScreen) editor.feed(data);
  }
  return { commands: editor.commands.map((c) => shown(c, limits.commandChars)), cut: editor.cut };
}

/** The commands typed in one recording (asciicast v2 text), in order, within COMMAND_LIMITS. */
export const extractCommands = (text: string, limits: typeof COMMAND_LIMITS = COMMAND_LIMITS): Extracted => extractFromEvents(parseCast(text), limits);

/** The commands alone (tests and the fixture's reading). */
export const commandsFromEvents = (events: CastEvent[]): string[] => extractFromEvents(events).commands;
export const commandsFromCast = (text: string): string[] => extractCommands(text).commands;
