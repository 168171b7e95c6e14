// A static page: no loader, no data; markup like faultline's cards, 40 rows by default (about
// the size of faultline's home page), or as many as the URL says (`/120`), at most 2,000.
import { useParams } from "react-router";

const ALL_ROWS = Array.from({ length: 2000 }, (_, i) => ({
  id: i + 1,
  title: `Static row number ${i + 1}`,
  text: "Something is broken. Reach it with plain ssh, fix it, and get graded by a check you cannot fake.",
}));

export default function Page() {
  const n = Math.min(Number(useParams().rows ?? 40) || 40, ALL_ROWS.length);
  const ROWS = ALL_ROWS.slice(0, n);
  return (
    <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
      <h1 className="mt-2 text-4xl font-bold leading-tight sm:text-5xl">A bare page</h1>
      <div className="grid gap-4 md:grid-cols-3">
        {ROWS.map((r) => (
          <article key={r.id} className="panel relative flex flex-col gap-3 transition-colors hover:border-emerald-600">
            <div className="flex items-start justify-between gap-3">
              <span className="rounded border px-2 py-0.5 text-xs font-semibold uppercase">row {r.id}</span>
            </div>
            <h3 className="text-lg font-bold leading-snug">
              <a href={`/rows/${r.id}`} className="text-zinc-900 no-underline after:absolute after:inset-0 hover:underline">
                {r.title}
              </a>
            </h3>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{r.text}</p>
          </article>
        ))}
      </div>
    </main>
  );
}
