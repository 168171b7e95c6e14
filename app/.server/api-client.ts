// The web's one way to the API: a caller per operation of the contract's table
// (shared/contract/operations.ts), named as the operation is, taking the operation's inputs and
// answering its response type. In the default single process it dispatches in-process to the
// API's Fetch handler. Nothing here knows a path or a shape: a change to an operation fails the
// type check where the web calls it.
import type { CallInput, Operation, ResponseOf } from "#shared/contract/operation.ts";
import { operations, type Operations } from "#shared/contract/operations.ts";

export type Dispatch = (request: Request, info: { clientIp: string }) => Promise<Response>;

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string };

/** An operation's caller: its input may be left out when the operation needs none. */
type Caller<O> = (...input: Record<string, never> extends CallInput<O> ? [input?: CallInput<O>] : [input: CallInput<O>]) => Promise<ApiResult<ResponseOf<O>>>;

export type ApiCalls = { [K in keyof Operations]: Caller<Operations[K]> } & {
  /** The API's own Response, for an answer passed on as it streams (the audit log export). */
  open<O extends Operation>(op: O, input: CallInput<O>): Promise<Response>;
};

type Input = { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };

/** The query string of the given values; blanks are left out, as every operation reads them. */
function queryString(query: Record<string, unknown> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

const byName = new Map<string, Operation>(Object.values(operations).map((op: Operation) => [op.name, op]));

export function createApiClient(dispatch: Dispatch, clientIp: string, base = "http://internal/api/v1") {
  /** The request of `op` with `input`, sent as the holder of `token` (none: a visitor). */
  function open(op: Operation, input: Input, token: string | undefined): Promise<Response> {
    const path = op.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(input.params?.[k] ?? ""));
    const headers: Record<string, string> = { accept: op.contentType ?? "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    // An operation that takes a body gets one, `{}` when the caller gave none (all optional).
    const body = op.body ? JSON.stringify(input.body ?? {}) : undefined;
    if (body !== undefined) headers["content-type"] = "application/json";
    return dispatch(new Request(base + path + queryString(input.query), { method: op.method, headers, body }), { clientIp });
  }

  /** The answer read as the operation gives it: JSON, or text for another content type. */
  async function call(op: Operation, input: Input, token: string | undefined): Promise<ApiResult<unknown>> {
    const res = await open(op, input, token);
    if (res.ok) return { ok: true, status: res.status, data: op.contentType ? await res.text() : await res.json().catch(() => ({})) };
    const data = (await res.json().catch(() => ({}))) as { detail?: unknown };
    return { ok: false, status: res.status, detail: typeof data.detail === "string" ? data.detail : "" };
  }

  /** Every operation's caller, as the holder of `token` (none: a visitor). Made when asked for:
   *  a page asks for a few of the table's operations, and building all of them for every
   *  `as(token)` showed in a CPU profile of a signed-in page. */
  function as(token?: string): ApiCalls {
    return new Proxy({} as ApiCalls, {
      get(target, name) {
        if (Reflect.has(target, name)) return Reflect.get(target, name); // `as`, below
        if (name === "open") return (op: Operation, input: Input) => open(op, input, token);
        const op = typeof name === "string" ? byName.get(name) : undefined;
        return op && ((input: Input = {}) => call(op, input, token));
      },
    });
  }

  return Object.assign(as(), { as });
}
export type ApiClient = ReturnType<typeof createApiClient>;
