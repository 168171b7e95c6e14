// How the success screen words a correct submission: the solve time and the rank.

/** "12m 04s"; an hour or more reads "1h 02m 03s". */
export function formatSolveTime(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h ${pad(m)}m ${pad(s % 60)}s` : `${m}m ${pad(s % 60)}s`;
}

export const rankText = (rank: number, of: number) => `rank ${rank} of ${of}`;
