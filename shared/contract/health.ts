// The API's JSON shape of GET /api/v1/health (docs/api.md, "Health"): status words, counts and
// times only, never a message, a path or an address: it is public. Measured by
// server/core/health.ts; shown by the /status page.

/** "disabled": this installation runs no challenge engine (RUNTIME=none), so no gateway or worker either. */
export type ComponentStatus = "ok" | "degraded" | "down" | "disabled";
export type OverallStatus = "ok" | "degraded" | "down";

export interface HealthReport {
  /** down: the database does not answer (nothing works); degraded: something else is not ok. */
  status: OverallStatus;
  /** When these measurements were taken (ISO 8601). */
  checked_at: string;
  components: {
    database: { status: ComponentStatus };
    /** The engine answering its ping, and every catalogue challenge's image present. */
    runtime: { status: ComponentStatus; engine: ComponentStatus; images_expected: number; images_missing: number | null };
    gateway: { status: ComponentStatus };
    /** The worker's last finished loop (ISO 8601), null before its first. */
    worker: { status: ComponentStatus; last_tick_at: string | null };
  };
  /** Deployments active now (queued to ready); null when the database did not answer. */
  deployments_running: number | null;
}
