// Client-side validation of the web's forms: conform's `parse` with a zod/mini schema, giving what
// `parseWithZod` from @conform-to/zod/v4 gives (the actions on the server keep using that one).
//
// Why not parseWithZod in the browser too: its form-value coercion (empty field -> undefined,
// "on" -> true, "12" -> 12) rebuilds the schema with zod's classic API, which brings classic zod
// into the page whatever the schemas are written in (~13 KiB gzip more than this file and
// zod/mini; see bench/client-js.ts). Here the same coercion is applied to the submitted values
// instead, walking the schema beside them, for the kinds of schema our forms use; any other kind
// throws, so a new form cannot silently validate differently with and without JavaScript.
// parse-form.test.ts checks every form schema against parseWithZod on many inputs.
import { parse, type Submission } from "@conform-to/react";
import * as z from "zod/mini";
import type { $ZodType, input, output } from "zod/v4/core";

/** conform's default for a text value: an empty string is no value. */
const strip = (value: unknown) => (value === "" ? undefined : value);

/** A value as conform's default coercion of a form value turns it into, for `schema`. */
function coerce(schema: $ZodType, value: unknown): unknown {
  const def = schema._zod.def;
  switch (def.type) {
    case "string":
    case "enum":
      return strip(value);
    case "literal": {
      // conform picks the coercion by the first literal's type; ours are all strings.
      const first = [...(def as z.core.$ZodLiteralDef<z.core.util.Literal>).values][0];
      if (typeof first !== "string") break;
      return strip(value);
    }
    case "number": {
      // Empty is no value; otherwise Number(text), which is NaN for non-numbers (zod refuses NaN).
      if (typeof value !== "string") return value;
      if (value === "") return undefined;
      return value.trim() === "" ? Number.NaN : Number(value);
    }
    case "boolean":
      // A checkbox sends "on"; any other text stays text and fails as "not a boolean".
      if (typeof value !== "string") return value;
      return value === "" ? undefined : value === "on" ? true : value;
    case "optional": {
      const inner = strip(value);
      return inner === undefined ? undefined : coerce((def as z.core.$ZodOptionalDef).innerType, inner);
    }
    case "object": {
      if (value === undefined) return {};
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      const shape = (def as z.core.$ZodObjectDef).shape;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, field] of Object.entries(shape)) {
        const v = coerce(field, out[key]);
        // A field the form sent keeps its key (zod tells a present undefined from an absent key).
        if (key in out || v !== undefined) out[key] = v;
      }
      return out;
    }
    case "union": {
      // conform coerces each option on its own; one value serves them all only if they agree.
      const options = (def as z.core.$ZodUnionDef).options.map((o) => coerce(o, value));
      if (options.every((o) => Object.is(o, options[0]))) return options[0];
      break;
    }
  }
  throw new Error(`parseForm: no form coercion for a zod "${def.type}" schema; use parseWithZod from @conform-to/zod/v4`);
}

/** conform's field name for an issue's path: `a.b[0]`, "" for the form itself. */
function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>((name, key) => {
    if (typeof key === "number") return `${name}[${key}]`;
    return name === "" ? String(key) : `${name}.${String(key)}`;
  }, "");
}

/** The submission conform's useForm expects from `onValidate`, as parseWithZod would give it. */
export function parseForm<Schema extends $ZodType>(
  payload: FormData | URLSearchParams,
  options: { schema: Schema },
): Submission<input<Schema>, string[], output<Schema>> {
  return parse(payload, {
    resolve(value) {
      const result = z.safeParse(options.schema, coerce(options.schema, value));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
      return { error };
    },
  }) as Submission<input<Schema>, string[], output<Schema>>;
}
