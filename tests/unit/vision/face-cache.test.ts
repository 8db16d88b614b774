import { beforeEach, describe, expect, it, vi } from "vitest";

// The faces identify compares (step 9) are drawn from the catalogue's rows and kept. A rebuilt
// index (after an import changed a card's name, number or attacks) must not be compared with
// faces drawn from the rows as they were before.

const row = vi.hoisted(() => ({ current: { id: "cache-a", name: "Charizard", hp: 120, number: "4", set_code: "base1", supertype: "Pokémon", types: ["Fire"], rarity: "Rare Holo", attacks: ["Fire Spin"] } }));
vi.mock("@/lib/images/queries/images", () => ({ faceRow: vi.fn(async () => row.current) }));
vi.mock("@/lib/vision/art", () => ({ withPrinting: async <T>(card: T) => ({ art: "one-illustration", ...card }) }));

const { catalogueFace } = await import("@/lib/vision/face");

describe("a catalogue card's face, kept", () => {
  beforeEach(() => {
    row.current = { ...row.current, name: "Charizard", attacks: ["Fire Spin"] };
  });

  it("is drawn once for an index, and again for a rebuilt one", async () => {
    const first = await catalogueFace("cache-a", "2026-11-27T10:00:00Z");
    row.current = { ...row.current, name: "Blastoise", attacks: ["Hydro Pump", "Withdraw"] };
    // The same index: the drawing kept.
    expect(await catalogueFace("cache-a", "2026-11-27T10:00:00Z")).toBe(first);
    // A rebuilt index: drawn from the row as it is now.
    const again = await catalogueFace("cache-a", "2026-11-27T12:00:00Z");
    expect(again).not.toBe(first);
    expect(Buffer.from(again!).equals(Buffer.from(first!))).toBe(false);
  });
});
