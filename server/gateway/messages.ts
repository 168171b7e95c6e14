// What the SSH gateway tells a person at their client: refusals (sent as authentication banners,
// banner.ts) and why a connection ends (written to each open channel). One short line each.
export const MESSAGES = {
  noDeployment: "No running faultline deployment for this key. Start a challenge on the website first, and use the SSH key registered in your settings.",
  keysOnly: "faultline accepts SSH keys only: add your public key in your settings on the website.",
  busy: "The faultline SSH gateway is busy right now: try again in a minute.",
  tooManyForUser: (n: number) => `You already have ${n} open SSH connection${n === 1 ? "" : "s"} to your deployments: close one and try again.`,
  tooManyAttempts: "Too many authentication attempts: connection closed.",
  resolveFailed: "faultline could not check this key right now: try again in a moment.",
  ended: "This faultline deployment has ended: connection closed.",
  reset:
    "This faultline deployment was reset: fresh containers, the fault set up again. Connection closed: connect again with the same ssh command once it is ready.",
  credentialsChanged:
    "The password or SSH key of your faultline account changed: connection closed. Connect again with the SSH key registered in your settings.",
  gatewayClosing: "The faultline SSH gateway is restarting: connect again in a moment.",
};
