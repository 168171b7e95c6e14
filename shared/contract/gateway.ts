// The API's JSON shape for the SSH gateway's public facts (docs/api.md, "Deployments (challenge
// sessions) and grading"): where to connect and which host key to expect on the first connection.

/** GET /challenges/config/ssh (503 when no gateway runs). */
export interface SshHostKey {
  ssh_host: string;
  ssh_port: number;
  /** As `ssh-keygen -l` and the OpenSSH client print it ("SHA256:..."). */
  host_key_fingerprint: string;
  host_public_key: string;
  /** A ready known_hosts line for this host and port. */
  known_hosts: string;
}
