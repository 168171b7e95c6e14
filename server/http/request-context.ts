// One id per request, carried through everything the request causes in this process: the web's
// loader, the in-process API client, the API handler and the core's log lines all run inside
// `runInRequest`, so the logger (server/logger.ts) stamps each line with the same id. Node's
// AsyncLocalStorage follows awaits and callbacks, so no function has to pass the id along.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

export interface RequestContext {
  /** The request id: the caller's X-Request-Id when sane, else a fresh UUID. */
  readonly id: string;
  /** The matched route's pattern (e.g. `/api/v1/challenges/:id`), for metrics labels. */
  route?: string;
}

const store = new AsyncLocalStorage<RequestContext>();

/**
 * An incoming X-Request-Id is kept only when it is short and plain (letters, digits and
 * `.-_:`), as a proxy or tracer would make it: anything else (newlines, quotes, long
 * strings) would end up in every log line and response header, so it is replaced.
 */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function acceptRequestId(incoming: string | null | undefined): string {
  return incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/** Runs `fn` as part of the request `ctx` (nested runs keep the outer request's context). */
export function runInRequest<T>(ctx: RequestContext, fn: () => T): T {
  return store.run(ctx, fn);
}

/** The request being served, if any (background work such as the worker has none). */
export function currentRequest(): RequestContext | undefined {
  return store.getStore();
}

/** The current request's id, if any. */
export function currentRequestId(): string | undefined {
  return store.getStore()?.id;
}
