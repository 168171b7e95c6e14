// "Compare" (issue 10): the commands a player typed, in order, rebuilt from an asciicast v2
// recording's "i" (input) events the way a line editor (bash's readline) would: printable text
// inserted at the cursor, backspace and delete, arrows and Home/End, the usual Ctrl keys
// (C, U, K, W, A, E), bracketed paste, and Up/Down recalling the commands typed before in the
// same shell. Enter ends a command. Keys typed while a full-screen program holds the terminal
// (vim, less, top: the output switched to the alternate screen) are not commands and are skipped.
// Tab completion happens in the shell, not in the keys: the completed part is not in the input,
// so a completed word shows as typed.

export type CastEvent = [time: number, kind: string, data: string];

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

/** A line editor fed key by key; `commands` collects each line ended by Enter. */
export class LineEditor {
  readonly commands: string[] = [];
  private line: string[] = [];
  private cursor = 0;
  /** Position in `commands` while browsing history with Up/Down (commands.length = the new line). */
  private browsing = 0;
  private pasting = false;

  /** Feeds raw input (as the terminal sent it). */
  feed(input: string): void {
    let i = 0;
    while (i < input.length) {
      const ch = input[i]!;
      if (ch === "\x1b") {
        i = this.escape(input, i);
        continue;
      }
      i += 1;
      if (this.pasting) {
        if (ch === "\r" || ch === "\n") this.enter();
        else if ((ch >= " " && ch !== "\x7f") || ch === "\t") this.insert(ch);
        continue;
      }
      switch (ch) {
        case "\r":
        case "\n":
          this.enter();
          break;
        case "\x7f":
        case "\b":
          if (this.cursor > 0) {
            this.line.splice(this.cursor - 1, 1);
            this.cursor -= 1;
          }
          break;
        case "\x03": // Ctrl-C: the line is abandoned.
          this.reset();
          break;
        case "\x15": // Ctrl-U: kill to the start.
          this.line.splice(0, this.cursor);
          this.cursor = 0;
          break;
        case "\x0b": // Ctrl-K: kill to the end.
          this.line.splice(this.cursor);
          break;
        case "\x17": // Ctrl-W: the word before the cursor.
          this.killWordBack();
          break;
        case "\x01": // Ctrl-A
          this.cursor = 0;
          break;
        case "\x05": // Ctrl-E
          this.cursor = this.line.length;
          break;
        case "\x02": // Ctrl-B
          this.cursor = Math.max(0, this.cursor - 1);
          break;
        case "\x06": // Ctrl-F
          this.cursor = Math.min(this.line.length, this.cursor + 1);
          break;
        case "\x04": // Ctrl-D: delete under the cursor (on an empty line the shell exits).
          this.line.splice(this.cursor, 1);
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
  }

  /** A line still being typed when the recording ended (never ended by Enter). */
  get pending(): string {
    return this.line.join("");
  }

  private insert(text: string) {
    this.line.splice(this.cursor, 0, ...text);
    this.cursor += text.length;
  }

  private enter() {
    const cmd = this.line.join("").trim();
    if (cmd) this.commands.push(cmd);
    this.reset();
  }

  private reset() {
    this.line = [];
    this.cursor = 0;
    this.browsing = this.commands.length;
  }

  private history(step: number) {
    const to = Math.min(this.commands.length, Math.max(0, this.browsing + step));
    if (to === this.browsing) return;
    this.browsing = to;
    this.line = [...(this.commands[to] ?? "")];
    this.cursor = this.line.length;
  }

  private killWordBack() {
    let j = this.cursor;
    while (j > 0 && this.line[j - 1] === " ") j -= 1;
    while (j > 0 && this.line[j - 1] !== " ") j -= 1;
    this.line.splice(j, this.cursor - j);
    this.cursor = j;
  }

  private wordMove(dir: -1 | 1) {
    const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);
    let j = this.cursor;
    if (dir < 0) {
      while (j > 0 && !isWord(this.line[j - 1])) j -= 1;
      while (j > 0 && isWord(this.line[j - 1])) j -= 1;
    } else {
      while (j < this.line.length && !isWord(this.line[j])) j += 1;
      while (j < this.line.length && isWord(this.line[j])) j += 1;
    }
    this.cursor = j;
  }

  /** Handles the escape sequence starting at `i`; returns the index after it. */
  private escape(s: string, i: number): number {
    const next = s[i + 1];
    if (next === "[" || next === "O") {
      // CSI (ESC [ params final) or SS3 (ESC O final).
      let j = i + 2;
      while (j < s.length && /[0-9;?]/.test(s[j]!)) j += 1;
      const params = s.slice(i + 2, j);
      const final = s[j];
      if (final === undefined) return s.length;
      this.csi(params, final);
      return j + 1;
    }
    if (next === "b") this.wordMove(-1); // Alt-B / Alt-F
    else if (next === "f") this.wordMove(1);
    else if (next === "\x7f") this.killWordBack(); // Alt-Backspace
    return next === undefined ? s.length : i + 2;
  }

  private csi(params: string, final: string) {
    if (final === "~") {
      if (params === "200") this.pasting = true;
      else if (params === "201") this.pasting = false;
      else if (params === "3") this.line.splice(this.cursor, 1); // Delete
      else if (params === "1" || params === "7") this.cursor = 0; // Home
      else if (params === "4" || params === "8") this.cursor = this.line.length; // End
      return;
    }
    // Ctrl-Left / Ctrl-Right arrive as ESC [ 1 ; 5 D / C.
    const word = params.endsWith(";5") || params.endsWith(";3");
    switch (final) {
      case "D":
        if (word) this.wordMove(-1);
        else this.cursor = Math.max(0, this.cursor - 1);
        break;
      case "C":
        if (word) this.wordMove(1);
        else this.cursor = Math.min(this.line.length, this.cursor + 1);
        break;
      case "H":
        this.cursor = 0;
        break;
      case "F":
        this.cursor = this.line.length;
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

/** The commands typed in one recording, in order. */
export function commandsFromEvents(events: CastEvent[]): string[] {
  const editor = new LineEditor();
  let fullScreen = false;
  for (const [, kind, data] of events) {
    if (kind === "o") fullScreen = altScreenAfter(fullScreen, data);
    else if (kind === "i" && !fullScreen) editor.feed(data);
  }
  return editor.commands;
}

export const commandsFromCast = (text: string): string[] => commandsFromEvents(parseCast(text));
