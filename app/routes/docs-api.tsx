// /docs/api: the JSON API reference, rendered from the OpenAPI 3.1 document the server builds out
// of its own route table (server/api/openapi.ts), so it shows what the routes really validate.
// Operations grouped by tag, each with who may call it, its parameters, its body's fields and its
// answers, plus the error format. Server-rendered, readable without JavaScript.
import { Link } from "#app/components/link.tsx";
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from "#shared/contract/openapi.ts";
import type { Route } from "./+types/docs-api";
import { getWeb } from "#app/.server/guards.ts";

export const meta: Route.MetaFunction = () => [{ title: "API reference | faultline" }];

const ACCESS: Record<OpenApiOperation["x-access"], string> = {
  public: "anyone",
  "optional-user": "anyone (more for a signed-in user)",
  user: "signed-in user (Bearer token)",
  admin: "admin (Bearer token)",
  service: "owner (Bearer token) or service (X-API-Key)",
};

interface Field {
  name: string;
  where: string;
  required: boolean;
  type: string;
}

/** A JSON Schema in a few words: type, allowed values and limits. */
export function describeSchema(s: JsonSchema | undefined): string {
  if (!s || !Object.keys(s).length) return "any";
  const parts: string[] = [];
  if (Array.isArray(s.anyOf)) parts.push((s.anyOf as JsonSchema[]).map(describeSchema).join(" or "));
  else if (Array.isArray(s.enum)) parts.push(`one of ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
  else if (s.type === "array") parts.push(`array of ${describeSchema(s.items as JsonSchema)}`);
  else if (s.type === "object" && s.properties) parts.push(`object (${Object.keys(s.properties as object).join(", ")})`);
  else if (typeof s.type === "string") parts.push(s.format ? `${s.type} (${s.format as string})` : (s.type as string));
  if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`${s.minLength ?? 0}–${s.maxLength ?? "∞"} characters`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? "−∞"} to ${s.maximum ?? "∞"}`);
  if (typeof s.pattern === "string" && s.format === undefined) parts.push(`matching ${s.pattern as string}`);
  return parts.join(", ");
}

/** The page's view of one operation: only what it shows (not the whole document). */
function viewOf(method: string, path: string, op: OpenApiOperation) {
  const fields: Field[] = op.parameters.map((p) => ({ name: p.name, where: p.in, required: p.required, type: describeSchema(p.schema) }));
  let bodyType: string | null = null;
  for (const [contentType, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    if (Object.keys(props).length) {
      for (const [name, s] of Object.entries(props)) fields.push({ name, where: "body", required: required.has(name), type: describeSchema(s) });
    } else {
      bodyType = `${contentType}${op.requestBody?.description ? `: ${op.requestBody.description}` : ""}`;
    }
  }
  return {
    id: op.operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary,
    access: ACCESS[op["x-access"]] ?? op["x-access"],
    fields,
    bodyType,
    responses: Object.entries(op.responses).map(([status, r]) => ({ status, description: r.description })),
  };
}

export async function loader({ context }: Route.LoaderArgs) {
  const res = await getWeb(context).api.getOpenApi();
  if (!res.ok) throw new Response("The API description is not available right now.", { status: 503 });
  // The document is described by OpenAPI itself; the operation answers it as an open object.
  const doc = res.data as unknown as OpenApiDocument;
  const groups = new Map<string, ReturnType<typeof viewOf>[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), viewOf(method, path, op)]);
    }
  }
  return {
    base: doc.servers[0]?.url ?? "/api/v1",
    intro: doc.info.description,
    groups: doc.tags.map((t) => ({ tag: t.name, operations: groups.get(t.name) ?? [] })).filter((g) => g.operations.length),
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

export default function DocsApi({ loaderData }: Route.ComponentProps) {
  const { base, intro, groups } = loaderData;
  return (
    <div className="mx-auto max-w-4xl">
      <section className="panel">
        <h1 className="prompt text-2xl font-bold">API reference</h1>
        <p className="mt-4">{intro}</p>
        <p className="mt-2">
          Every path below is under <code>{base}</code>. The machine-readable description is <a href={`${base}/openapi.json`}>{base}/openapi.json</a> (OpenAPI
          3.1). Back to <Link to="/docs">docs</Link>.
        </p>
        <nav aria-label="Groups" className="mt-4">
          <ul className="list-inside list-disc space-y-1">
            <li>
              <a href="#errors">Errors</a>
            </li>
            {groups.map((g) => (
              <li key={g.tag}>
                <a href={`#${slug(g.tag)}`}>{g.tag}</a> ({g.operations.length})
              </li>
            ))}
          </ul>
        </nav>
      </section>

      <section id="errors" aria-labelledby="errors-title" className="panel mt-6 space-y-2" data-testid="api-errors">
        <h2 id="errors-title" className="prompt text-xl font-bold">
          Errors
        </h2>
        <p>
          A failure answers its HTTP status with a JSON object whose <code>detail</code> says what is wrong, in words meant for people; a few carry more fields
          (<code>retry_after</code> on 429, with a <code>Retry-After</code> header):
        </p>
        <pre
          tabIndex={0}
          className="overflow-x-auto rounded border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-black dark:text-term-green"
        >
          {`{"detail": "password: must be at least 8 characters"}`}
        </pre>
        <p>
          400 names the field and the rule; 401 means no valid access token; 403 signed in but not allowed; 404 not found; 409 a conflict with the current
          state; 413 a body over the size limit; 429 too many requests; 500 is a bug and says only <code>Internal server error</code>. Every answer carries an{" "}
          <code>X-Request-Id</code> (yours, when you send a plain one) to quote when reporting a problem.
        </p>
      </section>

      {groups.map((g) => (
        <section
          key={g.tag}
          id={slug(g.tag)}
          aria-labelledby={`${slug(g.tag)}-title`}
          className="panel mt-6 space-y-6"
          data-testid={`api-group-${slug(g.tag)}`}
        >
          <h2 id={`${slug(g.tag)}-title`} className="prompt text-xl font-bold">
            {g.tag}
          </h2>
          {g.operations.map((op) => (
            <article key={op.id} id={op.id} aria-labelledby={`${op.id}-title`} className="space-y-2" data-testid="api-operation">
              <h3 id={`${op.id}-title`} className="font-mono text-base font-bold">
                {`${op.method} ${op.path}`}
              </h3>
              <p>{op.summary}</p>
              <p className="text-sm">Who may call it: {op.access}</p>
              {op.fields.length > 0 && (
                <div tabIndex={0} className="overflow-x-auto">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">{`Inputs of ${op.method} ${op.path}`}</caption>
                    <thead>
                      <tr>
                        <th scope="col">name</th>
                        <th scope="col">in</th>
                        <th scope="col">required</th>
                        <th scope="col">type and rules</th>
                      </tr>
                    </thead>
                    <tbody>
                      {op.fields.map((f) => (
                        <tr key={`${f.where}:${f.name}`}>
                          <td className="font-mono">{f.name}</td>
                          <td>{f.where}</td>
                          <td>{f.required ? "yes" : "no"}</td>
                          <td className="break-all">{f.type}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {op.bodyType && <p className="text-sm">Body: {op.bodyType}</p>}
              <ul className="list-inside list-disc text-sm">
                {op.responses.map((r) => (
                  <li key={r.status}>
                    <span className="font-mono">{r.status}</span>: {r.description}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </section>
      ))}
    </div>
  );
}
