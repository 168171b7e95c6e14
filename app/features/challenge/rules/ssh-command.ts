// The command that reaches a ready deployment through the SSH gateway.
import type { SshDetails } from "#shared/contract/deployments.ts";

/** What ssh would use when the API leaves port or user out (shared/contract/deployments.ts). */
export const DEFAULT_SSH_PORT = 22;
export const DEFAULT_SSH_USER = "ubuntu";

/** `ssh -p <port> <user>@<host>`, with the defaults (port 22, user ubuntu). */
export function sshCommand(d: SshDetails): string {
  return `ssh -p ${d.ssh_port || DEFAULT_SSH_PORT} ${d.ssh_user || DEFAULT_SSH_USER}@${d.ssh_host}`;
}
