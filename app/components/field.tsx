// A labelled input with its error beside it: the one way forms show field errors.
import type { ComponentProps } from "react";

export function Field({ label, errors, inputProps }: { label: string; errors?: string[]; inputProps: ComponentProps<"input"> }) {
  const id = inputProps.id ?? inputProps.name;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input {...inputProps} id={id} className="input" aria-invalid={errors?.length ? true : undefined} aria-describedby={errorId} />
      {errors?.length ? (
        <p id={errorId} className="field-error" role="alert">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

export function FormErrors({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div className="alert-error" role="alert" data-testid="form-error">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
