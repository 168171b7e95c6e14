// "This account's credentials changed": its password (changed or reset) or its SSH key (replaced
// or deleted). Whatever was let in with the old ones must not outlive them: the SSH gateway ends
// the account's connections (server.ts listens here, and the platform passes the event to the
// other replicas, whose gateways do the same). Web sign-ins end through web-sessions.ts.
export interface CredentialsChanged {
  userId: string;
  what: "password" | "ssh-key";
}

export function createCredentialEvents() {
  const listeners = new Set<(e: CredentialsChanged) => void>();
  return {
    /** Tells every listener; one that throws does not keep the others from hearing it. */
    changed(e: CredentialsChanged) {
      for (const l of listeners) {
        try {
          l(e);
        } catch {
          // a listener's own failure is its own
        }
      }
    },
    on(listener: (e: CredentialsChanged) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
export type CredentialEvents = ReturnType<typeof createCredentialEvents>;
