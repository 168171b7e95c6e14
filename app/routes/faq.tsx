// FAQ: an accordion of <details> (several can be open at once) with category filters as links.
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/faq";
import { SUPPORT_EMAIL } from "#app/components/footer.tsx";

export function meta() {
  return [{ title: "faq | faultline" }];
}

type Category = "general" | "technical" | "billing" | "challenges";
const FAQ: { id: number; question: string; answer: string; category: Category }[] = [
  {
    id: 1,
    category: "general",
    question: "What is faultline?",
    answer:
      "A practice platform for troubleshooting: each challenge is a real Linux environment with a fault in it. You connect with ssh, find the problem, fix it and submit your explanation.",
  },
  {
    id: 2,
    category: "general",
    question: "Who is it for?",
    answer:
      "Anyone who wants to get better at Linux administration, networking, storage, security or Kubernetes troubleshooting: students, SREs preparing for on-call, people preparing for interviews.",
  },
  {
    id: 3,
    category: "technical",
    question: "How do I connect to an environment?",
    answer: "Add your SSH public key in Settings → Security, start a challenge, then run the ssh command shown on the challenge page with your own ssh client.",
  },
  {
    id: 4,
    category: "technical",
    question: "How long does a session last?",
    answer: "Sessions last 30 minutes by default and can be extended 30 minutes at a time. When the time is up the environment is removed.",
  },
  {
    id: 5,
    category: "challenges",
    question: "How is my solution graded?",
    answer: "A check runs from outside your environment when you submit and looks at the real state of the system: the fault has to be fixed, not hidden.",
  },
  {
    id: 6,
    category: "challenges",
    question: "Do I get points for solving a challenge twice?",
    answer: "No: the first correct submission earns the points and records your time. You can still practise the challenge again.",
  },
  {
    id: 7,
    category: "billing",
    question: "Can I cancel Pro at any time?",
    answer:
      "Yes. Pro can be cancelled at any time and your access lasts to the end of the billing period: cancel on your billing page (/billing), and Pro stays until the date shown there.",
  },
  {
    id: 8,
    category: "billing",
    question: "What does Pro add?",
    answer:
      "Every difficulty level, hard and expert included, with no monthly limit, and Pro users can run several sessions at once (up to 3 deployments together). The free plan has every easy challenge, 3 medium challenges a calendar month (UTC; a start that fails does not count) and one deployment at a time.",
  },
];
const FILTERS = ["all", "general", "technical", "billing", "challenges"] as const;

export function loader({ request }: Route.LoaderArgs) {
  const c = new URL(request.url).searchParams.get("category");
  return { category: (FILTERS as readonly string[]).includes(c ?? "") ? (c as (typeof FILTERS)[number]) : "all" };
}

export default function Faq({ loaderData }: Route.ComponentProps) {
  const { category } = loaderData;
  const items = FAQ.filter((f) => category === "all" || f.category === category);
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="prompt text-2xl font-bold">man faultline</h1>
      <nav className="mt-4 flex flex-wrap gap-2" aria-label="FAQ categories">
        {FILTERS.map((f) => (
          <Link key={f} to={f === "all" ? "/faq" : `/faq?category=${f}`} className={f === category ? "btn-primary px-3 py-1" : "btn-ghost px-3 py-1"}>
            {f[0]!.toUpperCase() + f.slice(1)}
          </Link>
        ))}
      </nav>
      <div className="mt-6 space-y-3">
        {items.map((f) => (
          <details key={f.id} className="panel">
            <summary className="cursor-pointer font-semibold">{f.question}</summary>
            <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">{f.answer}</p>
          </details>
        ))}
      </div>
      <p className="mt-6 text-sm">
        Still stuck? Mail <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or ask on <Link to="/discord">discord</Link>.
      </p>
    </section>
  );
}
