import { Link } from "#app/components/link.tsx";

export function meta() {
  return [{ title: "submit a challenge | faultline" }];
}

export default function SubmitChallenge() {
  return (
    <section className="panel mx-auto max-w-2xl">
      <h1 className="prompt text-2xl font-bold">./submit_challenge</h1>
      <p className="mt-4">This feature is still cooking. 🍳</p>
      <p className="mt-2 text-sm text-zinc-500">Soon you will be able to propose your own broken-system scenarios for the catalogue.</p>
      <p className="mt-2 text-sm">
        Until then, read <Link to="/docs#challenge-format">the challenge format</Link> and send yours as a pull request.
      </p>
    </section>
  );
}
