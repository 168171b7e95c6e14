import { Link } from "./link.tsx";

export function NotFound({ path }: { path: string }) {
  return (
    <section className="panel mx-auto max-w-2xl" data-testid="not-found">
      <p className="prompt text-sm">cd {path}</p>
      <p className="mt-2 text-sm text-red-700 dark:text-term-red">bash: cd: {path}: No such file or directory</p>
      <h1 className="mt-6 text-3xl font-bold">404: page not found</h1>
      <p className="mt-2 text-sm text-zinc-500">The page you asked for does not exist, or it moved.</p>
      <div className="mt-6 flex gap-3">
        <button type="button" className="btn-ghost" onClick={() => history.back()}>
          cd ..
        </button>
        <Link to="/" className="btn-primary">
          cd ~
        </Link>
      </div>
    </section>
  );
}
