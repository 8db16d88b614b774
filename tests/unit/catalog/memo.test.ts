import { beforeEach, describe, expect, it, vi } from "vitest";

let version = "1";
vi.mock("@/lib/catalog/version", () => ({ catalogCache: { version: async () => version } }));
const { byCatalogVersion, clearCatalogMemo } = await import("@/lib/catalog/memo");

describe("byCatalogVersion", () => {
  beforeEach(() => {
    clearCatalogMemo();
    version = "1";
  });

  it("loads once per key and catalogue version", async () => {
    const load = vi.fn(async () => ({ n: Math.random() }));
    const a = await byCatalogVersion("k", load);
    expect(await byCatalogVersion("k", load)).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
    version = "2";
    const b = await byCatalogVersion("k", load);
    expect(b).not.toBe(a);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("shares a load in flight, and keeps no failure", async () => {
    let calls = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++calls), 20));
    const [x, y] = await Promise.all([byCatalogVersion("s", slow), byCatalogVersion("s", slow)]);
    expect([x, y]).toEqual([1, 1]);
    await expect(byCatalogVersion("f", async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(await byCatalogVersion("f", async () => "ok")).toBe("ok");
  });
});
