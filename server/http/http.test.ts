// The client address behind reverse proxies and TRUST_PROXY's values.
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#server/config.ts";
import { clientIp } from "./http.ts";

const req = (socket: string, xff?: string | string[]) =>
  ({ socket: { remoteAddress: socket }, headers: xff === undefined ? {} : { "x-forwarded-for": xff } }) as unknown as IncomingMessage;

describe("clientIp", () => {
  it("without trusted proxies uses the socket's address and ignores X-Forwarded-For", () => {
    expect(clientIp(req("::ffff:203.0.113.9", "198.51.100.1"), 0)).toBe("203.0.113.9");
  });

  it("behind one proxy takes the right-most entry: what the client wrote to the left is not believed", () => {
    expect(clientIp(req("10.0.0.2", "203.0.113.50"), 1)).toBe("203.0.113.50");
    expect(clientIp(req("10.0.0.2", "1.2.3.4, 203.0.113.50"), 1)).toBe("203.0.113.50");
    expect(clientIp(req("10.0.0.2", "spoofed, also-spoofed,203.0.113.50"), 1)).toBe("203.0.113.50");
    // Several headers count as one list, in order.
    expect(clientIp(req("10.0.0.2", ["1.2.3.4", "203.0.113.50"]), 1)).toBe("203.0.113.50");
    expect(clientIp(req("10.0.0.2", "::ffff:203.0.113.50"), 1)).toBe("203.0.113.50");
  });

  it("behind N proxies takes the entry N hops from the right; the socket when there is none", () => {
    // client 203.0.113.50 → proxy 10.0.0.1 (appends the client) → proxy 10.0.0.2 (appends 10.0.0.1) → us
    expect(clientIp(req("10.0.0.2", "1.2.3.4, 203.0.113.50, 10.0.0.1"), 2)).toBe("203.0.113.50");
    expect(clientIp(req("10.0.0.2", "203.0.113.50"), 2)).toBe("203.0.113.50");
    expect(clientIp(req("10.0.0.2"), 1)).toBe("10.0.0.2");
    expect(clientIp(req("10.0.0.2", " , "), 1)).toBe("10.0.0.2");
  });
});

describe("TRUST_PROXY", () => {
  const withDir = <T>(fn: (dir: string) => T): T => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-proxy-"));
    try {
      return fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  it("is a number of proxy hops; true means one, false none", () => {
    withDir((DATA_DIR) => {
      const hops = (v?: string) => loadConfig({ DATA_DIR, TRUST_PROXY: v }).trustProxy;
      expect(hops()).toBe(0);
      expect(hops("false")).toBe(0);
      expect(hops("0")).toBe(0);
      expect(hops("true")).toBe(1);
      expect(hops("1")).toBe(1);
      expect(hops("2")).toBe(2);
      for (const bad of ["yes", "-1", "11", "1.5"]) {
        expect(() => hops(bad)).toThrow(ConfigError);
        expect(() => hops(bad)).toThrow(/TRUST_PROXY: must be true, false or a number of proxy hops/);
      }
    });
  });
});
