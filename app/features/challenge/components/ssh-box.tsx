// The command that reaches the deployment. The text is selectable everywhere; the copy button
// appears once JavaScript runs (the Clipboard API needs it).
import { useState } from "react";
import { useHydrated } from "#app/hooks/use-hydrated.ts";

export function SshBox({ command, hostKey }: { command: string; hostKey?: string | null }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(command);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied("idle"), 2000);
  }
  return (
    <div className="space-y-1" data-testid="ssh-box">
      <label className="label" htmlFor="ssh-command">
        connect
      </label>
      <div className="flex items-stretch gap-2">
        <code
          id="ssh-command"
          className="min-w-0 flex-1 select-all break-all rounded border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-black dark:text-term-green"
          data-testid="ssh-command"
        >
          {command}
        </code>
        {hydrated ? (
          <button type="button" className="btn-ghost shrink-0 px-3" onClick={copy} data-testid="ssh-copy">
            {copied === "copied" ? "copied" : copied === "failed" ? "select + copy" : "copy"}
          </button>
        ) : null}
      </div>
      <p className="text-xs text-zinc-500">Use the SSH key saved in your settings.</p>
      {hostKey ? (
        <p className="break-all text-xs text-zinc-500">
          On the first connection, ssh shows the server&apos;s key: it must be <code data-testid="ssh-host-key">{hostKey}</code>.
        </p>
      ) : null}
    </div>
  );
}
