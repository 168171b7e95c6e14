// How the success screen words a correct submission's rank (its solve time: formatSolveTime in
// app/lib/player.ts, the one solve-time format).

export const rankText = (rank: number, of: number) => `rank ${rank} of ${of}`;
