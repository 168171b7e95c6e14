// /status: the platform's live health (GET /api/v1/health, measured by server/core/health.ts at
// most every few seconds): each part's state and the time of the check. Server-rendered, so it
// works without JavaScript ("check again" is a link); with it, the page measures again every 15 s.
import { useEffect } from "react";
import { data, useRevalidator } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/status";
import type { HealthReport } from "#shared/contract/index.ts";
import { getWeb } from "#app/.server/guards.ts";

export function meta() {
  return [{ title: "status | faultline" }];
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const res = await getWeb(context).api.getHealth();
  return data({ report: res.ok ? res.data : null }, { headers: { "cache-control": "no-store" } });
}

type Word = HealthReport["components"]["database"]["status"];

const HEADLINE: Record<HealthReport["status"], string> = {
  ok: "All systems operational.",
  degraded: "Some systems are degraded: challenges may not start.",
  down: "faultline is down: the database does not answer.",
};

const COLOUR: Record<Word, string> = {
  ok: "text-emerald-700 dark:text-term-green",
  degraded: "text-amber-700 dark:text-term-amber",
  down: "text-red-700 dark:text-term-red",
  disabled: "text-zinc-600 dark:text-zinc-400",
};

/** "2026-11-23 09:41:03 UTC": the same text on the server and in the browser. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

function rows(r: HealthReport): { id: string; name: string; status: Word; detail: string }[] {
  const { database, runtime, gateway, worker } = r.components;
  const images =
    runtime.images_missing === null
      ? ""
      : runtime.images_missing === 0
        ? `, all ${runtime.images_expected} challenge images present`
        : `, ${runtime.images_missing} of ${runtime.images_expected} challenge images missing`;
  return [
    { id: "database", name: "database", status: database.status, detail: database.status === "ok" ? "answering" : "not answering" },
    {
      id: "runtime",
      name: "challenge runtime",
      status: runtime.status,
      detail: runtime.engine === "disabled" ? "no engine on this installation" : runtime.engine === "ok" ? `engine answering${images}` : "engine not answering",
    },
    {
      id: "gateway",
      name: "ssh gateway",
      status: gateway.status,
      detail: gateway.status === "disabled" ? "not run without an engine" : gateway.status === "ok" ? "accepting connections" : "not answering",
    },
    {
      id: "worker",
      name: "worker",
      status: worker.status,
      detail: worker.status === "disabled" ? "not run without an engine" : worker.last_tick_at ? `last round ${utc(worker.last_tick_at)}` : "not running",
    },
  ];
}

export default function Status({ loaderData }: Route.ComponentProps) {
  const { report } = loaderData;
  const revalidator = useRevalidator();
  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, 15_000);
    return () => clearInterval(t);
  }, [revalidator]);

  return (
    <section className="panel mx-auto max-w-3xl" data-testid="status-page">
      <h1 className="prompt text-2xl font-bold">systemctl status faultline</h1>
      {report ? (
        <>
          <p className={`mt-4 font-bold ${COLOUR[report.status]}`} data-testid="status-overall" data-status={report.status}>
            ● {report.status === "ok" ? "operational" : report.status} · {HEADLINE[report.status]}
          </p>
          <table className="mt-6 w-full text-left text-sm">
            <caption className="sr-only">State of each part of faultline</caption>
            <thead>
              <tr className="border-b border-zinc-300 dark:border-zinc-800">
                <th scope="col" className="py-2 pr-4">
                  component
                </th>
                <th scope="col" className="py-2 pr-4">
                  state
                </th>
                <th scope="col" className="py-2">
                  detail
                </th>
              </tr>
            </thead>
            <tbody>
              {rows(report).map((row) => (
                <tr key={row.id} className="border-b border-zinc-200 dark:border-zinc-900" data-testid={`status-${row.id}`} data-status={row.status}>
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {row.name}
                  </th>
                  <td className={`py-2 pr-4 font-bold ${COLOUR[row.status]}`}>● {row.status}</td>
                  <td className="py-2">{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-4 text-sm">
            deployments running: <span data-testid="status-deployments">{report.deployments_running ?? "unknown"}</span>
          </p>
          <p className="mt-1 text-sm">
            last checked:{" "}
            <time dateTime={report.checked_at} data-testid="status-checked-at">
              {utc(report.checked_at)}
            </time>
          </p>
        </>
      ) : (
        <p className="mt-4 font-bold text-red-700 dark:text-term-red" data-testid="status-overall" data-status="unknown">
          ● unknown · The health check did not answer.
        </p>
      )}
      <p className="mt-6">
        <Link to="/status" className="btn-ghost">
          check again
        </Link>
      </p>
    </section>
  );
}
