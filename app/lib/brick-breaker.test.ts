import { describe, expect, it } from "vitest";
import { BRICKS, FIELD, PADDLE, newGame, restart, speedFactor, step, togglePause, type GameState } from "./brick-breaker.ts";

const idle = { left: false, right: false };

function run(s: GameState, frames: number, input = idle) {
  for (let i = 0; i < frames; i++) s = step(s, input);
  return s;
}

describe("brick-breaker", () => {
  it("starts running with 5 rows of 8 bricks, no points and the paddle in the middle", () => {
    const s = newGame();
    expect(s.phase).toBe("running");
    expect(s.bricks).toHaveLength(BRICKS.rows * BRICKS.cols);
    expect(new Set(s.bricks.map((b) => b.y)).size).toBe(5);
    expect(s.score).toBe(0);
    expect(s.paddleX).toBe((FIELD.width - PADDLE.width) / 2);
    const right = s.bricks.reduce((m, b) => Math.max(m, b.x + BRICKS.width), 0);
    expect(right).toBeLessThanOrEqual(FIELD.width);
  });

  it("moves the paddle 7 a frame and keeps it on the field", () => {
    const s = newGame();
    expect(step(s, { left: false, right: true }).paddleX).toBe(s.paddleX + 7);
    expect(step(s, { left: true, right: false }).paddleX).toBe(s.paddleX - 7);
    expect(run(s, 200, { left: true, right: false }).paddleX).toBe(0);
  });

  it("gives 10 points a brick and speeds up every 50 points", () => {
    const s = newGame();
    const target = s.bricks[BRICKS.cols * (BRICKS.rows - 1)]!; // bottom row, first brick
    const aimed: GameState = { ...s, ball: { x: target.x + 10, y: target.y + BRICKS.height + 5, dx: 0, dy: -4 } };
    const after = run(aimed, 3);
    expect(after.score).toBe(10);
    expect(after.bricks.filter((b) => !b.alive)).toHaveLength(1);
    expect(after.ball.dy).toBeGreaterThan(0);
    expect(speedFactor(40)).toBe(1);
    expect(speedFactor(50)).toBeCloseTo(1.1);
    expect(speedFactor(120)).toBeCloseTo(1.2);
  });

  it("ends when the ball falls past the paddle, and r starts a new game only then", () => {
    const s = newGame();
    const falling: GameState = { ...s, paddleX: 0, ball: { x: FIELD.width - 20, y: PADDLE.y + 20, dx: 0, dy: 4 } };
    const over = run(falling, 30);
    expect(over.phase).toBe("over");
    expect(over.won).toBe(false);
    expect(restart(s)).toBe(s);
    const again = restart(over);
    expect(again.phase).toBe("running");
    expect(again.score).toBe(0);
  });

  it("bounces off the paddle", () => {
    const s = newGame();
    const onto: GameState = { ...s, ball: { x: s.paddleX + PADDLE.width / 2, y: PADDLE.y - 10, dx: 0, dy: 4 } };
    const back = run(onto, 3);
    expect(back.ball.dy).toBeLessThan(0);
    expect(back.phase).toBe("running");
  });

  it("pauses and resumes with p; a paused game does not move", () => {
    const s = togglePause(newGame());
    expect(s.phase).toBe("paused");
    expect(run(s, 10, { left: true, right: false })).toBe(s);
    expect(togglePause(s).phase).toBe("running");
  });

  it("is won when the last brick breaks", () => {
    const s = newGame();
    const last = s.bricks[0]!;
    const one: GameState = {
      ...s,
      bricks: s.bricks.map((b, i) => ({ ...b, alive: i === 0 })),
      ball: { x: last.x + 10, y: last.y + BRICKS.height + 5, dx: 0, dy: -4 },
    };
    const done = run(one, 3);
    expect(done.phase).toBe("over");
    expect(done.won).toBe(true);
  });
});
