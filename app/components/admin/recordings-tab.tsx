// The Recordings tab (abuse review): recent recorded shells, or one user's (?user=, also linked
// from each user row). Opening one plays it here or downloads it from
// /admin/recordings/:id/cast; the API writes every opening to the audit log.
import { Form } from "react-router";
import type { RecordingView } from "#shared/contract/index.ts";
import { Replay } from "#app/features/challenge/index.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { formatTime } from "./shared.tsx";

export type AdminRecording = RecordingView & { username: string };

export const adminCastUrl = (id: string) => `/admin/recordings/${encodeURIComponent(id)}/cast`;

export function RecordingsTab({ recordings, user, error }: { recordings: AdminRecording[] | null; user: string; error: string | null }) {
  const hydrated = useHydrated();
  return (
    <section className="panel space-y-4" data-testid="admin-recordings">
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="tab" value="recordings" />
        <label className="text-sm">
          <span className="label">user</span>
          <input name="user" type="search" defaultValue={user} placeholder="username" className="input ml-2 w-48" />
        </label>
        <button type="submit" className="btn-ghost">
          filter
        </button>
      </Form>
      <p className="text-xs text-zinc-500">Opening a recording is written to the audit log.</p>
      {error ? (
        <p className="alert-error" role="alert">
          {error}
        </p>
      ) : null}
      {recordings && !recordings.length ? <p className="text-sm text-zinc-500">No recordings.</p> : null}
      <ul className="space-y-3">
        {(recordings ?? []).map((r) => (
          <li key={r.id} className="rounded border border-zinc-300 p-3 text-sm dark:border-zinc-800" data-testid="admin-recording">
            <p>
              <strong>{r.username}</strong> · {r.challenge_id} · {r.source} · {formatTime(r.started_at)} · {Math.ceil(r.bytes / 1024)} KiB
              {r.truncated ? " (cut at the size bound)" : ""}
              {r.published ? " · published" : ""}
            </p>
            <Replay src={adminCastUrl(r.id)} hydrated={hydrated} label="open" testId="admin-replay" />
          </li>
        ))}
      </ul>
    </section>
  );
}
