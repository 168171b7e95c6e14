// The easter egg's game: a brick-breaker on a
// 640x480 field, 5 rows of 8 bricks, 10 points a brick, faster every 50 points, a paddle 80 wide
// moving 7 per frame. Pure state and one step per animation frame, so the rules are tested
// without a canvas (brick-breaker.test.ts); the component only draws and reads keys.
export const FIELD = { width: 640, height: 480 } as const;
export const PADDLE = { width: 80, height: 10, speed: 7, y: FIELD.height - 30 } as const;
export const BRICKS = { rows: 5, cols: 8, width: 68, height: 18, gap: 8, top: 50, left: 20, points: 10 } as const;
export const BALL = { radius: 6, speed: 4 } as const;
/** Every 50 points the ball goes 10 % faster. */
export const SPEED_UP = { every: 50, factor: 0.1 } as const;

export type Phase = "running" | "paused" | "over";

export interface Brick {
  x: number;
  y: number;
  alive: boolean;
}

export interface GameState {
  phase: Phase;
  /** Set when the game ended with every brick broken. */
  won: boolean;
  score: number;
  paddleX: number;
  ball: { x: number; y: number; dx: number; dy: number };
  bricks: Brick[];
}

export interface Input {
  left: boolean;
  right: boolean;
}

export function newGame(): GameState {
  const bricks: Brick[] = [];
  for (let row = 0; row < BRICKS.rows; row++) {
    for (let col = 0; col < BRICKS.cols; col++) {
      bricks.push({ x: BRICKS.left + col * (BRICKS.width + BRICKS.gap), y: BRICKS.top + row * (BRICKS.height + BRICKS.gap), alive: true });
    }
  }
  const paddleX = (FIELD.width - PADDLE.width) / 2;
  return {
    phase: "running",
    won: false,
    score: 0,
    paddleX,
    ball: { x: FIELD.width / 2, y: PADDLE.y - BALL.radius - 1, dx: BALL.speed * 0.6, dy: -BALL.speed * 0.8 },
    bricks,
  };
}

/** How fast the ball goes at this score, as a multiple of its starting speed. */
export function speedFactor(score: number): number {
  return 1 + SPEED_UP.factor * Math.floor(score / SPEED_UP.every);
}

export function togglePause(s: GameState): GameState {
  if (s.phase === "over") return s;
  return { ...s, phase: s.phase === "paused" ? "running" : "paused" };
}

/** r starts again, but only once the game is over. */
export function restart(s: GameState): GameState {
  return s.phase === "over" ? newGame() : s;
}

/** One animation frame. */
export function step(s: GameState, input: Input): GameState {
  if (s.phase !== "running") return s;
  const move = (input.right ? PADDLE.speed : 0) - (input.left ? PADDLE.speed : 0);
  const paddleX = Math.min(FIELD.width - PADDLE.width, Math.max(0, s.paddleX + move));

  const k = speedFactor(s.score);
  let { x, y, dx, dy } = s.ball;
  x += dx * k;
  y += dy * k;
  const r = BALL.radius;
  if (x - r < 0) {
    x = r;
    dx = Math.abs(dx);
  }
  if (x + r > FIELD.width) {
    x = FIELD.width - r;
    dx = -Math.abs(dx);
  }
  if (y - r < 0) {
    y = r;
    dy = Math.abs(dy);
  }

  // The paddle sends the ball back up, more to the side the further from its middle it lands.
  if (dy > 0 && y + r >= PADDLE.y && y + r <= PADDLE.y + PADDLE.height + Math.abs(dy * k) && x >= paddleX - r && x <= paddleX + PADDLE.width + r) {
    const offset = (x - (paddleX + PADDLE.width / 2)) / (PADDLE.width / 2);
    const speed = Math.hypot(dx, dy);
    dx = speed * 0.75 * Math.max(-1, Math.min(1, offset));
    dy = -Math.sqrt(Math.max(speed * speed - dx * dx, (speed * speed) / 4));
    y = PADDLE.y - r;
  }

  let score = s.score;
  let bricks = s.bricks;
  const hit = bricks.findIndex((b) => b.alive && x + r > b.x && x - r < b.x + BRICKS.width && y + r > b.y && y - r < b.y + BRICKS.height);
  if (hit >= 0) {
    bricks = bricks.map((b, i) => (i === hit ? { ...b, alive: false } : b));
    score += BRICKS.points;
    dy = -dy;
  }

  const cleared = bricks.every((b) => !b.alive);
  const lost = y - r > FIELD.height;
  return { ...s, paddleX, score, bricks, ball: { x, y, dx, dy }, phase: cleared || lost ? "over" : "running", won: cleared };
}
