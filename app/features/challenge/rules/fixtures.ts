// What the rules' tests share: a fixed clock, a deployment as the API answers it, and a socket
// the test drives by hand. Test code only.
import type { ChallengeDeployment } from "#shared/contract/deployments.ts";
import type { SocketLike } from "./live-controller.ts";

export const T0 = Date.parse("2030-01-01T12:00:00.000Z");
export const iso = (msFromT0: number) => new Date(T0 + msFromT0).toISOString();
export const SSH = { ssh_host: "play.example.test", ssh_port: 2222, ssh_user: "d-abc" };

/** A deployment as GET /challenges/{id}/active-session answers it (named after that URL). */
export const session = (patch: Partial<ChallengeDeployment> = {}): ChallengeDeployment => ({
  deployment_id: "dep-1",
  status: "queued",
  expires_at: iso(30 * 60_000),
  ssh_details: null,
  websocket_url: "/ws/deployments/dep-1",
  error_message: null,
  ...patch,
});

// A socket the test drives by hand.
export class FakeSocket implements SocketLike {
  onopen: SocketLike["onopen"] = null;
  onmessage: SocketLike["onmessage"] = null;
  onclose: SocketLike["onclose"] = null;
  onerror: SocketLike["onerror"] = null;
  closed: { code?: number; reason?: string } | null = null;
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
  }
  open() {
    this.onopen?.({});
  }
  send(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code = 1006, reason = "") {
    this.onclose?.({ code, reason });
  }
}
