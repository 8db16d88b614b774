import { describe, expect, it } from "vitest";
import { scope } from "@/lib/scope";

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe("scope", () => {
  it("carries its value along a run's awaits, and has none outside", async () => {
    const s = scope<string>();
    expect(s.get()).toBeUndefined();
    const seen = await s.run("a", async () => {
      await tick();
      await Promise.resolve();
      return s.get();
    });
    expect(seen).toBe("a");
    expect(s.get()).toBeUndefined();
  });

  it("keeps a longer run's value when a shorter one overlapping it ends first", async () => {
    const s = scope<string>();
    const long = s.run("long", async () => {
      await tick(20);
      return s.get();
    });
    expect(await s.run("short", async () => s.get())).toBe("short");
    expect(await long).toBe("long");
  });

  it("runs again after its runs have all ended, and passes on a run's failure", async () => {
    const s = scope<number>();
    await s.run(1, async () => undefined);
    await expect(s.run(2, async () => {
      throw new Error(`failed with ${s.get()}`);
    })).rejects.toThrow("failed with 2");
    expect(await s.run(3, async () => s.get())).toBe(3);
  });
});
