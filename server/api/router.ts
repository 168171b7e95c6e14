// A small router over the Fetch API's Request and Response, so the same handler serves HTTP
// (through server/http/http.ts) and the web's in-process client without a network hop.
// Each handler is registered against its operation in the contract (shared/contract/operations.ts):
// the router enforces the operation's access, parses its params, query and body with the
// operation's schemas before the handler runs, and (outside production) checks the JSON it answers
// against the response schema; server/api/openapi.ts builds the OpenAPI document from the same table.
import { z } from "zod";
import { readBodyText } from "#server/http/body-limit.ts";
import { badRequest } from "#server/core/errors.ts";
import type { Logger } from "#server/logger.ts";
import { currentRequest } from "#server/http/request-context.ts";
import type { Access, BodyOf, Operation, ParamsOf, QueryOf } from "#shared/contract/operation.ts";
import { errorResponse, json } from "./errors.ts";

export { errorResponse, json };

export interface RequestInfo {
  /** The caller's address, as the transport saw it (rate limits key on it). */
  clientIp: string;
}

/** What every handler is given, whatever its operation. */
export interface BaseCtx {
  request: Request;
  url: URL;
  info: RequestInfo;
}

/** A handler's view of its request: params, query and body already parsed by the operation's
 *  schemas (a bad one was a 400 naming the field before the handler ran). */
export interface Ctx<O = Operation> extends BaseCtx {
  params: ParamsOf<O>;
  query: QueryOf<O>;
  body: BodyOf<O>;
  /** The JSON answer with another status than the operation's or with headers; still checked
   *  against the response schema (here at compile time, in tests by the router). */
  reply(data: z.input<ResponseSchemaOf<O>>, init?: { status?: number; headers?: Record<string, string> }): Response;
}

type ResponseSchemaOf<O> = O extends { response: infer R extends z.ZodType } ? R : z.ZodNever;

/** A handler answers its operation's response (sent with the operation's status), or a Response
 *  for anything else (another status, a redirect, a stream, text). */
export type Handler<O> = (c: Ctx<O>) => Promise<z.input<ResponseSchemaOf<O>> | Response>;

export type { Access };

export interface RouteEntry {
  method: string;
  /** As registered, e.g. `/challenges/:id/submit` (the API prefix left out). */
  path: string;
  op: Operation;
}

interface Route extends RouteEntry {
  pattern: RegExp;
  keys: string[];
  handler: (c: Ctx<Operation>) => Promise<unknown>;
}

/** The JSON a `c.reply` carries, so the router can check it against the response schema. */
const REPLIED = Symbol("replied");
type Replied = Response & { [REPLIED]?: unknown };

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw badRequest(r.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; "));
}

/** No input of ours nests deeper; a deeper one (found by tests/integration/fuzz.test.ts: 20,000
 *  levels overflowed the stack of every walk over it) is refused before anything reads it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Refuses text with NUL characters anywhere in a value (keys included): PostgreSQL cannot store
 * them in text and fails the query, so they would surface as a 500 instead of a 400. And values
 * nested deeper than MAX_INPUT_DEPTH.
 */
function rejectNul(v: unknown, path: string, depth = 0): void {
  const at = (p: string) => (p ? `${p}: ` : "");
  if (depth > MAX_INPUT_DEPTH) throw badRequest(`The input is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`);
  if (typeof v === "string") {
    if (v.includes("\u0000")) throw badRequest(`${at(path)}must not contain NUL characters`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => rejectNul(x, path ? `${path}.${i}` : String(i), depth + 1));
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      rejectNul(k, path, depth + 1);
      rejectNul(x, path ? `${path}.${k}` : k, depth + 1);
    }
  }
}

/** Refuses a caller the operation's `access` (or, for a personal API token, its `personalToken`)
 *  does not admit (401 without a valid credential, 403 without the role or the scope), before
 *  its inputs are read or its handler runs. */
export type AccessGuard = (op: Operation, c: BaseCtx) => Promise<void>;

export interface RouterOptions {
  /** Parse each JSON answer with its operation's response schema; a mismatch is a 500, logged as
   *  an error. On outside production (tests and development), where the cost does not matter and
   *  a drifting shape must fail loudly. */
  checkResponses?: boolean;
}

export function createRouter(log: Logger, guard?: AccessGuard, { checkResponses = process.env.NODE_ENV !== "production" }: RouterOptions = {}) {
  const routes: Route[] = [];

  /** Registers `handler` as the implementation of `op`; its inputs and answer are typed by the
   *  operation's schemas. */
  function handle<O extends Operation>(op: O, handler: Handler<O>): void {
    if (routes.some((r) => r.op.name === op.name)) throw new Error(`${op.name} is registered twice`);
    const keys: string[] = [];
    const pattern = new RegExp(
      "^" +
        op.path.replace(/\/$/, "").replace(/:(\w+)/g, (_, k) => {
          keys.push(k);
          return "([^/]+)";
        }) +
        "/?$",
    );
    routes.push({ method: op.method, path: op.path, op, pattern, keys, handler: handler as unknown as Route["handler"] });
  }

  /** One debug line per API request, in the request's context (so with its id). */
  async function serve(request: Request, info: RequestInfo, prefix = ""): Promise<Response> {
    const t0 = performance.now();
    const res = await dispatch(request, info, prefix);
    const route = currentRequest()?.route;
    log.debug(`api ${request.method} ${route ?? "(no route)"} ${res.status}`, {
      method: request.method,
      route: route ?? null,
      status: res.status,
      ms: Math.round(performance.now() - t0),
    });
    return res;
  }

  async function readBody(request: Request, schema: z.ZodType): Promise<unknown> {
    let data: unknown = {};
    const text = await readBodyText(request);
    if (text.trim()) {
      try {
        data = JSON.parse(text);
      } catch {
        throw badRequest("The request body must be JSON");
      }
      rejectNul(data, "");
    }
    return parse(schema, data);
  }

  /** The answer as sent, after checking its JSON against the operation's response schema. */
  function answer(op: Operation, out: unknown): Response {
    const res = out instanceof Response ? (out as Replied) : null;
    const data = res ? res[REPLIED] : out;
    if (checkResponses && (!res || REPLIED in res) && !op.contentType) {
      const checked = op.response.safeParse(data);
      if (!checked.success) {
        const issues = checked.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
        log.error(`api ${op.name} answered JSON its response schema refuses (shared/contract): ${issues}`, { operation: op.name });
        return json({ detail: "Internal server error" }, 500);
      }
    }
    return res ?? json(out, op.status ?? 200);
  }

  async function dispatch(request: Request, info: RequestInfo, prefix: string): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.slice(prefix.length) || "/";
    let pathMatched = false;
    for (const r of routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== request.method) continue;
      // The pattern, not the URL, labels the request's metrics (bounded cardinality).
      const ctxOfRequest = currentRequest();
      if (ctxOfRequest) ctxOfRequest.route = prefix + r.path;
      let raw: Record<string, string>;
      try {
        raw = Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)]));
        for (const [k, v] of Object.entries(raw)) rejectNul(v, k);
      } catch (e) {
        return errorResponse(e instanceof URIError ? badRequest("Malformed percent-encoding in the path") : e, log);
      }
      const { op } = r;
      const ctx: Ctx<Operation> = {
        request,
        url,
        info,
        params: raw,
        query: undefined,
        body: undefined,
        reply: (data, init = {}) => Object.assign(json(data, init.status ?? op.status ?? 200, init.headers), { [REPLIED]: data }),
      };
      try {
        // Access is the table's to enforce, not each handler's to remember; nothing of the
        // request is read before it.
        if (guard) await guard(op, ctx);
        if (op.params) ctx.params = parse(op.params, raw) as Record<string, string>;
        if (op.query) {
          const q = Object.fromEntries(url.searchParams);
          rejectNul(q, "");
          ctx.query = parse(op.query, q) as undefined;
        }
        if (op.body) ctx.body = (await readBody(request, op.body)) as undefined;
        return answer(op, await r.handler(ctx));
      } catch (e) {
        return errorResponse(e, log);
      }
    }
    return pathMatched ? json({ detail: "Method not allowed" }, 405) : json({ detail: `Not found: ${path}` }, 404);
  }

  return {
    handle,
    serve,
    /** Every registered route, in matching order (the OpenAPI document and its check read it). */
    routes: (): readonly RouteEntry[] => routes.map(({ method, path, op }) => ({ method, path, op })),
  };
}
export type Router = ReturnType<typeof createRouter>;
