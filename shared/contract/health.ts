// The API's JSON shape of GET /api/v1/health (docs/api.md, "Health"): status words, counts and
// times only, never a message, a path or an address: it is public. Measured by
// server/core/health.ts; shown by the /status page.
import { z } from "zod";
import { defineOperations } from "./operation.ts";

/** "disabled": this installation runs no challenge engine (RUNTIME=none), so no gateway or worker either. */
export const componentStatusSchema = z.enum(["ok", "degraded", "down", "disabled"]);
export type ComponentStatus = z.infer<typeof componentStatusSchema>;
export const overallStatusSchema = z.enum(["ok", "degraded", "down"]);
export type OverallStatus = z.infer<typeof overallStatusSchema>;

export const healthReportSchema = z.object({
  /** down: the database does not answer (nothing works); degraded: something else is not ok. */
  status: overallStatusSchema,
  /** When these measurements were taken (ISO 8601). */
  checked_at: z.string(),
  components: z.object({
    database: z.object({ status: componentStatusSchema }),
    /** The engine answering its ping, and every catalogue challenge's image present. */
    runtime: z.object({
      status: componentStatusSchema,
      engine: componentStatusSchema,
      images_expected: z.number(),
      images_missing: z.number().nullable(),
    }),
    gateway: z.object({ status: componentStatusSchema }),
    /** The worker's last finished loop (ISO 8601), null before its first. */
    worker: z.object({ status: componentStatusSchema, last_tick_at: z.string().nullable() }),
  }),
  /** Deployments active now (queued to ready); null when the database did not answer. */
  deployments_running: z.number().nullable(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

export const healthOperations = defineOperations({
  getHealth: {
    method: "GET",
    path: "/health",
    summary: "Live health of each part (status words and counts)",
    tags: ["System"],
    access: "public",
    personalToken: "read",
    response: healthReportSchema,
  },
  getOpenApi: {
    method: "GET",
    path: "/openapi.json",
    summary: "This document: the API in OpenAPI 3.1",
    tags: ["System"],
    access: "public",
    personalToken: "read",
    response: z.record(z.string(), z.unknown()),
  },
});
