// "reset": back to the broken state with fresh containers, keeping the timer and the ssh command
// (server/core/deployments/reset.ts). It confirms first: with JavaScript a native dialog, then
// the post (a fetcher: the live channel shows resetting → ready); without it a link to
// /challenges/:id/reset, a page that asks and posts (routes/challenge-reset.tsx).
import { useFetcher, useParams } from "react-router";
import type { DeploymentStatus } from "#shared/contract/deployments.ts";
import { RESET_CONFIRM } from "#app/features/challenge/rules/reset.ts";

export function ResetControl({ status, hydrated }: { status: DeploymentStatus; hydrated: boolean }) {
  const { id = "" } = useParams();
  const fetcher = useFetcher<{ ok?: string; error?: string }>({ key: "challenge-reset" });
  if (status !== "ready" && status !== "resetting") return null;
  const href = `/challenges/${encodeURIComponent(id)}/reset`;
  const busy = fetcher.state !== "idle" || status === "resetting";
  return (
    <>
      {hydrated ? (
        <fetcher.Form
          method="post"
          action={href}
          className="inline"
          onSubmit={(e) => {
            if (!window.confirm(RESET_CONFIRM)) e.preventDefault();
          }}
        >
          <input type="hidden" name="js" value="1" />
          <button type="submit" className="btn-ghost" disabled={busy} data-testid="reset-button">
            {status === "resetting" ? "resetting..." : "reset"}
          </button>
        </fetcher.Form>
      ) : (
        <a href={href} className="btn-ghost" data-testid="reset-button">
          reset
        </a>
      )}
      {fetcher.data?.error ? (
        <p className="alert-error basis-full" role="alert" data-testid="reset-error">
          {fetcher.data.error}
        </p>
      ) : null}
    </>
  );
}
