// Small labels of the challenge page and the banner: difficulty (easy green, medium yellow,
// hard red, expert purple) and the deployment status with its dot.
import type { DeploymentStatus } from "#shared/contract/deployments.ts";
import { DIFFICULTY_CLASSES } from "#app/lib/player.ts";
import { STATUS_LABELS } from "#app/features/challenge/rules/status.ts";

export function DifficultyBadge({ level }: { level: string }) {
  const cls = DIFFICULTY_CLASSES[level] ?? "border-zinc-500 text-zinc-600 dark:text-zinc-300";
  return (
    <span className={`rounded border px-2 py-0.5 text-xs font-semibold uppercase ${cls}`} data-testid="difficulty">
      {level}
    </span>
  );
}

export const STATUS_DOT: Record<DeploymentStatus, string> = {
  idle: "bg-zinc-400",
  queued: "bg-sky-500 animate-pulse",
  deploying: "bg-amber-500 animate-pulse",
  setting_up: "bg-amber-500 animate-pulse",
  ready: "bg-emerald-500",
  resetting: "bg-amber-500 animate-pulse",
  failed: "bg-red-500",
  terminated: "bg-zinc-500",
};

export function StatusDot({ status }: { status: DeploymentStatus }) {
  return <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 shrink-0 rounded-full ${STATUS_DOT[status]}`} />;
}

export function StatusBadge({ status }: { status: DeploymentStatus }) {
  return (
    <span
      className="inline-flex items-center gap-2 rounded border border-zinc-300 px-2 py-0.5 text-xs font-semibold dark:border-zinc-700"
      data-testid="deployment-status"
      data-status={status}
    >
      <StatusDot status={status} />
      {STATUS_LABELS[status]}
    </span>
  );
}
