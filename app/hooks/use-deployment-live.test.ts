import { describe, expect, it } from "vitest";
import { socketUrl, statusPath } from "./use-deployment-live.ts";

describe("live channel addresses", () => {
  it("turns the API's websocket_url path into ws(s):// on the page's host, with the token", () => {
    expect(socketUrl("/ws/deployments/abc", "t.o.k", "http://localhost:3000/challenges/x")).toBe(
      "ws://localhost:3000/ws/deployments/abc?token=t.o.k",
    );
    expect(socketUrl("/ws/deployments/abc", "a b", "https://play.example/challenges/x")).toBe(
      "wss://play.example/ws/deployments/abc?token=a+b",
    );
  });
  it("polls the web's own status route (never the gateway)", () => {
    expect(statusPath("nginx-broken-config")).toBe("/challenges/nginx-broken-config/status");
  });
});
