import { describe, expect, it } from "vitest";
import { socketUrl, statusPath } from "./use-deployment-live.ts";

describe("live channel addresses", () => {
  it("turns the API's websocket_url path into ws(s):// on the page's host, with no token in it", () => {
    expect(socketUrl("/ws/deployments/abc", "http://localhost:3000/challenges/x?token=t.o.k")).toBe("ws://localhost:3000/ws/deployments/abc");
    expect(socketUrl("/ws/deployments/abc", "https://play.example/challenges/x")).toBe("wss://play.example/ws/deployments/abc");
  });
  it("polls the web's own status route (never the gateway)", () => {
    expect(statusPath("nginx-broken-config")).toBe("/challenges/nginx-broken-config/status");
  });
});
