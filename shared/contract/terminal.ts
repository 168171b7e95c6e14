// The browser terminal's WebSocket (/ws/terminal/{deployment id}): what the page and the server
// say to each other (server/terminal/, app/features/challenge/components/terminal-panel.tsx).
// A leaf: it imports nothing.
//
// The page connects with ?cols=&rows= and, when it reconnects to a shell it was showing,
// &shell=<shell_id>&offset=<bytes of output received>. Binary frames are the shell's bytes both
// ways (keystrokes in, output out); text frames are JSON control messages.

export const terminalPath = (deploymentId: string) => `/ws/terminal/${deploymentId}`;

/** Page → server (text frame). */
export type TerminalClientMessage = { type: "resize"; cols: number; rows: number };

/** Server → page (text frame). */
export type TerminalServerMessage =
  /** Attached to the deployment's shell; the binary frames that follow replay its output from
   *  byte `from` (a new shell: 0). `lost`: older output was not kept, the screen starts anew. */
  | { type: "attached"; shell_id: string; from: number; lost: boolean; resumed: boolean }
  /** The shell ended by itself (`exit`); a new one can be opened. */
  | { type: "exit"; code: number }
  /** The shell was ended from our side: the deployment ended or was reset, nothing typed for too
   *  long, the server restarts. */
  | { type: "ended"; message: string }
  /** Another tab took this deployment's terminal (one tab at a time). */
  | { type: "taken"; message: string }
  | { type: "notice"; message: string };

/** Close codes (4000 + the HTTP status where one fits). */
export const TERMINAL_CLOSE = {
  done: 1000,
  taken: 4001,
  unauthorized: 4401,
  notFound: 4404,
  notReady: 4409,
  tooMany: 4429,
} as const;

/** The limits, shown to people on the panel and in docs/decisions/013-browser-terminal.md. */
export const TERMINAL_LIMITS = {
  /** Browser terminals (shells) one user may hold open at once, over all their deployments. */
  shellsPerUser: 3,
  /** A shell whose page went away is kept this long for the page to come back. */
  graceSeconds: 120,
  /** A shell nobody typed into for this long is closed. */
  idleMinutes: 30,
} as const;

export const TERMINAL_TEXT = {
  taken: "This terminal is open in another tab (one tab at a time per deployment).",
  idle: `This terminal was closed after ${TERMINAL_LIMITS.idleMinutes} minutes without input.`,
  tooMany: `You already have ${TERMINAL_LIMITS.shellsPerUser} browser terminals open: close one first.`,
  notReady: "The deployment is not ready: the terminal opens once it is.",
  inputDropped: "Input arrives faster than the terminal takes it: some was dropped.",
} as const;
