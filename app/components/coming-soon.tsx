export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <section className="panel mx-auto max-w-2xl" data-testid="coming-soon">
      <h1 className="prompt text-2xl font-bold">{title}</h1>
      <p className="mt-4">{what}</p>
      <p className="mt-2 text-sm text-zinc-500">[ coming soon ] This part of faultline is being built right now.</p>
    </section>
  );
}
