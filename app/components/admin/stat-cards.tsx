// The console's stat cards (cpu, memory, storage, activeUsers, activeSessions), measured by the
// API when the page loads.
import type { SystemFigures } from "#shared/contract/admin.ts";

const GiB = 1024 ** 3;
const gib = (bytes: number) => `${(bytes / GiB).toFixed(1)} GiB`;

function Card({ name, value, note }: { name: string; value: string; note?: string }) {
  return (
    <div className="panel p-3" data-testid={`stat-${name}`}>
      <p className="label">{name}</p>
      <p className="text-xl font-bold" data-testid={`stat-${name}-value`}>
        {value}
      </p>
      {note ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{note}</p> : null}
    </div>
  );
}

export function StatCards({ figures }: { figures: SystemFigures | null }) {
  if (!figures) return <p className="alert-warn">The host's figures could not be measured right now.</p>;
  const { cpu, memory, storage } = figures;
  return (
    <section aria-label="System figures" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      <Card name="cpu" value={`${cpu.percent}%`} note={`${cpu.cores} cores, load ${cpu.load.join(" ")}`} />
      <Card name="memory" value={`${memory.percent}%`} note={`${gib(memory.used_bytes)} of ${gib(memory.total_bytes)}`} />
      <Card name="storage" value={`${storage.percent}%`} note={`${gib(storage.used_bytes)} of ${gib(storage.total_bytes)}`} />
      <Card name="activeUsers" value={String(figures.activeUsers)} note="signed in, last 15 min" />
      <Card name="activeSessions" value={String(figures.activeSessions)} note="deployments running" />
    </section>
  );
}
