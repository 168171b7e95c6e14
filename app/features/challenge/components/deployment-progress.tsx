// The bar, message and last log lines while a deployment is on its way to ready.
import type { DeploymentView } from "#app/features/challenge/rules/live-view.ts";

export function DeploymentProgress({ view }: { view: DeploymentView }) {
  const pct = view.progress ?? null;
  return (
    <div className="space-y-2" data-testid="deployment-progress">
      <div className="h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800">
        <div
          className={`h-full bg-emerald-500 transition-all ${pct === null ? "w-1/3 animate-pulse" : ""}`}
          style={pct === null ? undefined : { width: `${Math.max(5, pct)}%` }}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct ?? undefined}
          aria-label="deployment progress"
        />
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="progress-message">
        {view.progressMessage ?? "Preparing your environment..."}
      </p>
      {view.logs.length ? (
        <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-black" data-testid="deployment-logs">
          {view.logs.slice(-20).join("\n")}
        </pre>
      ) : null}
    </div>
  );
}
