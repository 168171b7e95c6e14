// Labelled textarea, select and checkbox in the style of components/field.tsx (which has the
// text input): the label, the control, then the first error below it.
import type { ComponentProps, ReactNode } from "react";

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {errors[0]}
    </p>
  );
}

function describe(id: string | undefined, errors?: string[]) {
  const errorId = `${id}-error`;
  return { errorId, aria: { "aria-invalid": errors?.length ? true : undefined, "aria-describedby": errors?.length ? errorId : undefined } };
}

export function TextAreaField({
  label,
  errors,
  hint,
  textareaProps,
}: {
  label: string;
  errors?: string[];
  hint?: ReactNode;
  textareaProps: ComponentProps<"textarea">;
}) {
  const id = textareaProps.id ?? textareaProps.name;
  const { errorId, aria } = describe(id, errors);
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <textarea {...textareaProps} id={id} className="input min-h-24 resize-y" {...aria} />
      {hint ? <p className="mt-1 text-xs text-zinc-500">{hint}</p> : null}
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  errors,
  selectProps,
  children,
}: {
  label: string;
  errors?: string[];
  selectProps: ComponentProps<"select">;
  children: ReactNode;
}) {
  const id = selectProps.id ?? selectProps.name;
  const { errorId, aria } = describe(id, errors);
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select {...selectProps} id={id} className="input" {...aria}>
        {children}
      </select>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

/** A checkbox with its label to the right, like `[x] label`. */
export function CheckboxField({ label, hint, errors, inputProps }: { label: string; hint?: string; errors?: string[]; inputProps: ComponentProps<"input"> }) {
  const id = inputProps.id ?? inputProps.name;
  const { errorId, aria } = describe(id, errors);
  return (
    <div>
      <div className="flex items-start gap-3">
        <input {...inputProps} type="checkbox" id={id} className="mt-0.5 size-4 shrink-0 accent-emerald-600 dark:accent-emerald-500" {...aria} />
        <div>
          <label htmlFor={id} className="text-sm font-semibold">
            {label}
          </label>
          {hint ? <p className="text-xs text-zinc-500">{hint}</p> : null}
        </div>
      </div>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}
