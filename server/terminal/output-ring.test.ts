import { describe, expect, it } from "vitest";
import { OutputRing } from "./output-ring.ts";

describe("a browser terminal's output ring", () => {
  it("gives what was written since an offset", () => {
    const r = new OutputRing(16);
    r.append(Buffer.from("hello "));
    r.append(Buffer.from("world"));
    expect(r.since(6)).toEqual({ data: Buffer.from("world"), from: 6, lost: false });
    expect(r.since(11).data.length).toBe(0);
  });

  it("keeps only the last bytes and says when some were lost", () => {
    const r = new OutputRing(8);
    r.append(Buffer.from("0123456789"));
    r.append(Buffer.from("abc"));
    expect(r.end).toBe(13);
    expect(r.start).toBe(5);
    expect(r.since(0)).toEqual({ data: Buffer.from("56789abc"), from: 5, lost: true });
    expect(r.since(10)).toEqual({ data: Buffer.from("abc"), from: 10, lost: false });
  });

  it("reads an impossible offset (ahead, negative, not a number) as everything kept", () => {
    const r = new OutputRing(8);
    r.append(Buffer.from("abc"));
    for (const bad of [99, -1, Number.NaN, 1.5]) expect(r.since(bad)).toEqual({ data: Buffer.from("abc"), from: 0, lost: false });
  });
});
