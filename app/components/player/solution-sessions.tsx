// The Solutions tab's "session" cell: the recorded shells of a solved challenge. On the owner's
// own profile each comes with a publish / make private form (a plain post: works without
// JavaScript; private is the default); on a public profile only published ones are listed, with
// "replay" for anyone.
import { Form } from "react-router";
import type { PublishedSolution, RecordingView } from "#shared/contract/index.ts";
import { castUrl, Replay } from "#app/features/challenge/index.ts";

export function OwnSessions({ recordings, hydrated }: { recordings: RecordingView[]; hydrated: boolean }) {
  if (!recordings.length) return <span className="text-xs text-zinc-500">no recording</span>;
  return (
    <ul className="space-y-2">
      {recordings.map((r, i) => (
        <li key={r.id} className="space-y-1" data-testid="own-session" data-published={r.published ? "true" : "false"}>
          <Form method="post" className="flex flex-wrap items-center gap-2 text-xs">
            <input type="hidden" name="intent" value="publish" />
            <input type="hidden" name="recording_id" value={r.id} />
            <input type="hidden" name="published" value={r.published ? "0" : "1"} />
            <span>
              shell {i + 1} ({r.source}) · {r.published ? "public" : "private"}
            </span>
            <button type="submit" className="btn-ghost px-2 py-0.5 text-xs" data-testid="publish-toggle">
              {r.published ? "make private" : "publish"}
            </button>
          </Form>
          <Replay src={castUrl(r.id)} hydrated={hydrated} label="replay" />
        </li>
      ))}
    </ul>
  );
}

export function PublishedSessions({ sessions, hydrated }: { sessions: PublishedSolution[]; hydrated: boolean }) {
  if (!sessions.length) return <span className="text-xs text-zinc-500">-</span>;
  return (
    <ul className="space-y-2">
      {sessions.map((s) => (
        <li key={s.recording_id} data-testid="published-session">
          <Replay src={castUrl(s.recording_id)} hydrated={hydrated} label="replay" />
        </li>
      ))}
    </ul>
  );
}
