// The fields of the catalogue's and the leaderboard's GET filter forms: a search box that
// submits after a typing pause and selects that submit at once (the callbacks come from
// useDebouncedSubmit; without JavaScript the form's submit button does it).
import type { Ref } from "react";

export function SearchField(props: { ref: Ref<HTMLInputElement>; defaultValue: string; placeholder: string; onType: () => void }) {
  return (
    <div>
      <label className="label" htmlFor="search">
        search
      </label>
      <input
        ref={props.ref}
        id="search"
        name="search"
        type="search"
        className="input"
        placeholder={props.placeholder}
        defaultValue={props.defaultValue}
        maxLength={100}
        autoComplete="off"
        onChange={props.onType}
      />
    </div>
  );
}

export function SelectField(props: {
  ref: Ref<HTMLSelectElement>;
  name: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
  onPick: () => void;
}) {
  return (
    <div>
      <label className="label" htmlFor={props.name}>
        {props.name}
      </label>
      <select ref={props.ref} id={props.name} name={props.name} className="input" defaultValue={props.defaultValue} onChange={props.onPick}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
