// The browser terminal (docs/decisions/013-browser-terminal.md): web-terminal.ts is the
// WebSocket (who may open it), web-shells.ts the shells behind it, one per deployment, run through
// the SSH gateway's exec path so both record and end the same way. server.ts attaches it next to
// the gateway and tells it, as it tells the gateway, when a deployment ends or is reset.
import type { ShellRecorder } from "#server/core/recordings/recorder.ts";
import { createHangUp } from "#server/gateway/shell.ts";
import type { Runtime } from "#server/runtime/types.ts";
import type { UpgradeDispatcher } from "#server/http/upgrades.ts";
import { createWebShells } from "./web-shells.ts";
import { attachWebTerminal, type WebTerminalDeps } from "./web-terminal.ts";

export interface BrowserTerminalDeps extends Omit<WebTerminalDeps, "shells"> {
  runtime: Runtime;
  recorder?: ShellRecorder;
  /** Tests shorten the grace period and the idle timeout. */
  graceMs?: number;
  idleMs?: number;
}

export function attachBrowserTerminal(upgrades: UpgradeDispatcher, deps: BrowserTerminalDeps) {
  const hangUp = createHangUp(1000, deps.log);
  const shells = createWebShells({ runtime: deps.runtime, log: deps.log, hangUp, recorder: deps.recorder, graceMs: deps.graceMs, idleMs: deps.idleMs });
  const transport = attachWebTerminal(upgrades, { ...deps, shells });
  return {
    /** Ends the deployment's browser shell, telling the page `message`. */
    closeDeployment: shells.closeDeployment,
    stats: shells.stats,
    close(message: string) {
      shells.closeAll(message);
      transport.close();
    },
  };
}
export type BrowserTerminal = ReturnType<typeof attachBrowserTerminal>;
