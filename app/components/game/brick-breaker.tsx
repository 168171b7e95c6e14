// The brick-breaker itself (the easter egg): draws app/lib/brick-breaker.ts's state on a canvas
// once per animation frame and reads the keys: arrows or h/l move, p pauses, r restarts after
// game over, Escape closes. Loaded only when the egg is found (easter-egg.tsx imports it lazily).
import { useEffect, useRef, useState } from "react";
import { BALL, BRICKS, FIELD, PADDLE, newGame, restart, step, togglePause, type GameState } from "#app/lib/brick-breaker.ts";

const LABEL = { running: "running", paused: "paused", over: "game over" } as const;

export default function BrickBreaker({ onClose }: { onClose: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const game = useRef<GameState>(newGame());
  const keys = useRef({ left: false, right: false });
  const [shown, setShown] = useState({ phase: game.current.phase, score: 0, won: false });

  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      const k = e.key;
      if (k === "Escape") return onClose();
      if (k === "ArrowLeft" || k === "h") keys.current.left = true;
      else if (k === "ArrowRight" || k === "l") keys.current.right = true;
      else if (k === "p") game.current = togglePause(game.current);
      else if (k === "r") game.current = restart(game.current);
      else return;
      e.preventDefault();
    };
    const up = (e: KeyboardEvent) => {
      if (e.key === "ArrowLeft" || e.key === "h") keys.current.left = false;
      if (e.key === "ArrowRight" || e.key === "l") keys.current.right = false;
    };
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    let frame = requestAnimationFrame(function tick() {
      game.current = step(game.current, keys.current);
      draw(canvas.current, game.current);
      const g = game.current;
      setShown((s) => (s.phase === g.phase && s.score === g.score && s.won === g.won ? s : { phase: g.phase, score: g.score, won: g.won }));
      frame = requestAnimationFrame(tick);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
    };
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/80 p-4" role="dialog" aria-modal="true" aria-label="brick-breaker">
      <div className="panel w-full max-w-[680px]">
        <div className="mb-2 flex items-center justify-between text-sm">
          <span className="prompt font-bold">brick-breaker</span>
          <span>
            score <b data-testid="game-score">{shown.score}</b> · <span data-testid="game-state">{LABEL[shown.phase]}</span>
            {shown.phase === "over" && (shown.won ? " · board cleared" : "")}
          </span>
        </div>
        <canvas ref={canvas} width={FIELD.width} height={FIELD.height} className="block h-auto w-full border border-green-700 bg-black" />
        <p className="mt-2 text-xs">← → or h / l move · p pause · {shown.phase === "over" ? <b>r play again</b> : "r restarts after game over"} · Esc close</p>
        <button type="button" className="btn-ghost mt-2" onClick={onClose}>
          close
        </button>
      </div>
    </div>
  );
}

function draw(canvas: HTMLCanvasElement | null, s: GameState) {
  const ctx = canvas?.getContext("2d");
  if (!ctx) return;
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, FIELD.width, FIELD.height);
  const colours = ["#f87171", "#fb923c", "#facc15", "#4ade80", "#60a5fa"];
  s.bricks.forEach((b, i) => {
    if (!b.alive) return;
    ctx.fillStyle = colours[Math.floor(i / BRICKS.cols) % colours.length]!;
    ctx.fillRect(b.x, b.y, BRICKS.width, BRICKS.height);
  });
  ctx.fillStyle = "#4ade80";
  ctx.fillRect(s.paddleX, PADDLE.y, PADDLE.width, PADDLE.height);
  ctx.beginPath();
  ctx.arc(s.ball.x, s.ball.y, BALL.radius, 0, Math.PI * 2);
  ctx.fillStyle = "#e5e7eb";
  ctx.fill();
  if (s.phase !== "running") {
    ctx.fillStyle = "#4ade80";
    ctx.font = "bold 28px monospace";
    ctx.textAlign = "center";
    ctx.fillText(s.phase === "paused" ? "PAUSED" : s.won ? "BOARD CLEARED" : "GAME OVER", FIELD.width / 2, FIELD.height / 2);
  }
}
