// `/healthz` for load balancers and the container's HEALTHCHECK: 200 when every part is ok,
// 503 otherwise, the overall status word as the body and nothing else (no sign-in needed, so
// no details). /status and GET /api/v1/health give the parts.
import type { Request, Response } from "express";
import type { Health } from "#server/core/health.ts";

export function healthz(health: Health) {
  return async (_req: Request, res: Response) => {
    let status = "down";
    try {
      status = (await health.check()).status;
    } catch {
      // A failing measurement is a failing health check, never a 500 with a stack.
    }
    res
      .status(status === "ok" ? 200 : 503)
      .set("cache-control", "no-store")
      .type("text/plain")
      .send(`${status}\n`);
  };
}
