// What the page shows when the challenge cannot be loaded: the error and the way back.
import { Link } from "#app/components/link.tsx";
import { TEXT } from "#app/features/challenge/rules/texts.ts";

export function LoadError({ message }: { message: string }) {
  return (
    <section className="panel mx-auto max-w-2xl space-y-4" data-testid="challenge-load-error">
      <p className="alert-error" role="alert">
        {message}
      </p>
      <Link to="/challenges" className="btn-ghost">
        {TEXT.returnToChallenges}
      </Link>
    </section>
  );
}
