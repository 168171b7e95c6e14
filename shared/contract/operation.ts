// One API operation, declared once: its route, who may call it, and the zod schemas of what it
// takes and answers. The router registers handlers against these objects (server/api/router.ts),
// the OpenAPI document is generated from them (server/api/openapi.ts) and the web's client calls
// through them (app/.server/api-client.ts), so a shape lives in one place and a change to it fails
// the type check wherever it is produced or read.
import type { z } from "zod";

/**
 * Who may call an operation: anyone; a signed-in user (`Authorization: Bearer <access token>`);
 * anyone, answering more to a signed-in user; an admin; or a service (its own credential).
 */
export type Access = "public" | "user" | "optional-user" | "admin" | "service";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The scopes of a personal API token (settings, "API tokens"): `read` calls the player's reads,
 * `play` those and the deployment's actions (start, reset, terminate) and submitting an answer.
 */
export const PERSONAL_TOKEN_SCOPES = ["read", "play"] as const;
export type PersonalTokenScope = (typeof PERSONAL_TOKEN_SCOPES)[number];

/** An operation as written in an area's table, before its name is added from its key. */
export interface OperationSpec {
  method: HttpMethod;
  /** As routed, e.g. `/challenges/:id/submit` (the API prefix left out). */
  path: string;
  access: Access;
  /**
   * The least scope of a personal API token that may call it; absent: no personal token may,
   * whatever its scope or its owner (accounts, settings, tokens, billing, 2FA, admin, services).
   * `read` is only for GETs. Enforced in one place, the API's access guard, by
   * `personalTokenAdmits` below.
   */
  personalToken?: PersonalTokenScope;
  summary: string;
  /** The first tag groups the operation on /docs/api. */
  tags: readonly [string, ...string[]];
  description?: string;
  /** The path's `:name` values; each missing one is taken as a plain string. */
  params?: z.ZodObject;
  /** The query string (parsed before the handler runs). */
  query?: z.ZodType;
  /** The JSON body (read and parsed before the handler runs, after the access check). */
  body?: z.ZodType;
  /** A body read raw instead (a webhook whose signature covers the exact bytes). */
  rawBody?: { contentType: string; description: string };
  /** What a success answers: the JSON's schema, or the text's when `contentType` is given. */
  response: z.ZodType;
  /** The success status (200 unless given). */
  status?: number;
  returns?: string;
  /** A success answer that is not JSON (e.g. `application/x-ndjson`). */
  contentType?: string;
  /** Further failures than those implied by `access` and the inputs (status → when). */
  errors?: Partial<Record<number, string>>;
}

export interface Operation extends OperationSpec {
  /** camelCase, in the web's words ("deployment", never "session"). */
  name: string;
}

/**
 * Whether a personal API token of `scope` may call `op`: the operation declares the least scope
 * (deny when it declares none); a `read` operation must be a GET, and no admin or service
 * operation is ever open to one, whatever the table says.
 */
export function personalTokenAdmits(scope: PersonalTokenScope, op: Pick<OperationSpec, "method" | "access" | "personalToken">): boolean {
  const least = op.personalToken;
  if (!least || op.access === "admin" || op.access === "service") return false;
  if (least === "read") return op.method === "GET";
  return scope === "play";
}

type Named<T extends Record<string, OperationSpec>> = { [K in keyof T]: T[K] & { name: K } };

/** An area's operations, each named after its key. */
export function defineOperations<const T extends Record<string, OperationSpec>>(specs: T): Named<T> {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, { ...spec, name }])) as Named<T>;
}

/** What a handler is given, validated by the operation's schemas. */
export type ParamsOf<O> = O extends { params: infer P extends z.ZodType } ? z.output<P> : Record<string, string>;
export type QueryOf<O> = O extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
export type BodyOf<O> = O extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
/** What a handler may answer and a caller reads. */
export type ResponseOf<O> = O extends { response: infer R extends z.ZodType } ? z.output<R> : never;
/** What a caller sends (before transforms). */
export type QueryInputOf<O> = O extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined;
export type BodyInputOf<O> = O extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;

/** The `:name` parts of a path, e.g. "id" | "provider". */
type PathParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;
/** What a caller fills the path with: the params schema's input, else a string per `:name`. */
export type ParamsInputOf<O> = O extends { params: infer P extends z.ZodType }
  ? z.input<P>
  : O extends { path: infer S extends string }
    ? Record<PathParamNames<S>, string>
    : never;

/** What a caller of an operation gives: the path's values, its query and its body, each only
 *  where the operation takes one (and required where it must be given). */
export type CallInput<O> = (O extends { path: infer S extends string }
  ? [PathParamNames<S>] extends [never]
    ? unknown
    : { params: ParamsInputOf<O> }
  : unknown) &
  (O extends { query: z.ZodType } ? (Record<string, never> extends QueryInputOf<O> ? { query?: QueryInputOf<O> } : { query: QueryInputOf<O> }) : unknown) &
  (O extends { body: z.ZodType } ? (Record<string, never> extends BodyInputOf<O> ? { body?: BodyInputOf<O> } : { body: BodyInputOf<O> }) : unknown);
