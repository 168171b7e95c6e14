// The CLI's HTTP client: Node's fetch against `<url>/api/v1`, one call per operation of the
// contract (shared/contract/), each success checked against the operation's response schema. A
// server that answers anything else (not JSON, another shape, an HTML error page) ends the command
// with exit 7 and a sentence, never a stack trace; a faultline error answer ends it with the
// API's `detail` and the exit code of its status (./errors.ts). The token goes only in the
// Authorization header: never in a URL, a message or a log.
import type { z } from "zod";
import type { OperationSpec } from "#shared/contract/operation.ts";
import { CliError, EXIT, exitOfStatus } from "./errors.ts";

export interface CallArgs {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface Api {
  readonly url: string;
  call<O extends OperationSpec>(op: O, args?: CallArgs): Promise<z.output<O["response"]>>;
}

/** How long one request may take before the server counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

export function createApi(url: string, token: string | null, opts: { timeoutMs?: number } = {}): Api {
  return {
    url,
    async call<O extends OperationSpec>(op: O, args: CallArgs = {}): Promise<z.output<O["response"]>> {
      const path = op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(args.params?.[name] ?? ""));
      const target = new URL(`${url}/api/v1${path}`);
      for (const [k, v] of Object.entries(args.query ?? {})) if (v !== undefined && v !== "") target.searchParams.set(k, String(v));
      const what = `${op.method} ${target.pathname}`;
      const headers: Record<string, string> = { accept: "application/json", "user-agent": "faultline-cli" };
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (op.body) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(args.body ?? {});
      }
      let res: Response;
      try {
        res = await fetch(target, { method: op.method, headers, body, redirect: "error", signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS) });
      } catch (e) {
        throw new CliError(EXIT.unreachable, `Cannot reach the faultline server at ${url}: ${reason(e)}`);
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw new CliError(EXIT.unreachable, `The answer from ${url} to ${what} broke off: ${reason(e)}`);
      }
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: judged below
      }
      if (res.ok) {
        const parsed = op.response.safeParse(json);
        if (!parsed.success) {
          const first = parsed.error.issues[0];
          const where = first ? ` (${first.path.join(".") || "the answer"}: ${first.message})` : "";
          throw new CliError(
            EXIT.unreachable,
            `The server at ${url} answered ${what} with something that is not faultline's API${where}. Is the URL right, and is the server the same version as this program?`,
            { status: res.status },
          );
        }
        return parsed.data as z.output<O["response"]>;
      }
      const detail = isRecord(json) && typeof json.detail === "string" ? json.detail : null;
      if (detail === null) {
        throw new CliError(EXIT.unreachable, `The server at ${url} answered ${what} with HTTP ${res.status} and no faultline error: is the URL right?`, {
          status: res.status,
        });
      }
      const retry = isRecord(json) && typeof json.retry_after === "number" ? json.retry_after : Number(res.headers.get("retry-after")) || undefined;
      const code = exitOfStatus(res.status);
      const message = code === EXIT.rateLimited && retry ? `${detail} (retry after ${retry} seconds)` : detail;
      throw new CliError(code, message, { status: res.status, ...(retry ? { retry_after: retry } : {}) });
    },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why a fetch failed, in words (undici hides the socket's error in `cause`). */
function reason(e: unknown): string {
  if (e instanceof Error && e.name === "TimeoutError") return "no answer in time";
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : null;
  const code = cause && "code" in cause ? String(cause.code) : null;
  if (code) return code === "ECONNREFUSED" ? "connection refused" : code === "ENOTFOUND" ? "no such host" : code;
  if (cause) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
