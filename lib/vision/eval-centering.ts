import sharp from "sharp";
import { measureCentering, MeasureError } from "@/lib/centering/measure";
import { renderFace, seeded, type FaceCard } from "./render";
import { synthCenteringPhoto } from "./synth";

// How far measured centering lies from the truth: faces drawn with known offsets (50/50 to
// 85/15 on each axis, either way), measured as flat scans and as phone photos in perspective.
// Every frame colour is among them, the Lightning frame close to the border's own yellow too.

const CARDS: FaceCard[] = [
  { id: "eval-c-1", name: "Charizard", hp: 120, number: "4", set_code: "base1", supertype: "Pokémon", types: ["Fire"], rarity: "Rare Holo", attacks: ["Fire Spin"] },
  { id: "eval-c-2", name: "Blastoise", hp: 100, number: "2", set_code: "base1", supertype: "Pokémon", types: ["Water"], rarity: "Rare Holo", attacks: ["Hydro Pump"] },
  { id: "eval-c-3", name: "Venusaur", hp: 100, number: "15", set_code: "base1", supertype: "Pokémon", types: ["Grass"], rarity: "Rare Holo", attacks: ["Solarbeam"] },
  { id: "eval-c-4", name: "Gengar", hp: 90, number: "5", set_code: "fossil", supertype: "Pokémon", types: ["Psychic"], rarity: "Rare Holo", attacks: ["Curse"] },
  { id: "eval-c-5", name: "Onix", hp: 90, number: "56", set_code: "base1", supertype: "Pokémon", types: ["Fighting"], rarity: "Common", attacks: ["Rock Throw"] },
  { id: "eval-c-6", name: "Dragonite", hp: 100, number: "4", set_code: "fossil", supertype: "Pokémon", types: ["Dragon"], rarity: "Rare Holo", attacks: ["Slam"] },
  { id: "eval-c-7", name: "Snorlax", hp: 90, number: "27", set_code: "jungle", supertype: "Pokémon", types: ["Colorless"], rarity: "Rare", attacks: ["Body Slam"] },
  { id: "eval-c-9", name: "Pikachu", hp: 60, number: "58", set_code: "base1", supertype: "Pokémon", types: ["Lightning"], rarity: "Common", attacks: ["Thunder Jolt"] },
  { id: "eval-c-10", name: "Umbreon", hp: 90, number: "13", set_code: "neo2", supertype: "Pokémon", types: ["Darkness"], rarity: "Rare Holo", attacks: ["Pound"] },
  { id: "eval-c-11", name: "Steelix", hp: 110, number: "15", set_code: "neo2", supertype: "Pokémon", types: ["Metal"], rarity: "Rare Holo", attacks: ["Tackle"] },
  { id: "eval-c-12", name: "Sylveon", hp: 100, number: "90", set_code: "xy9", supertype: "Pokémon", types: ["Fairy"], rarity: "Rare", attacks: ["Fairy Wind"] },
  { id: "eval-c-8", name: "Professor Oak", hp: null, number: "88", set_code: "base1", supertype: "Trainer", types: [], rarity: "Uncommon", attacks: [] },
];

export type Spread = { p50: number; p90: number; max: number };

function spread(errors: number[]): Spread {
  const s = [...errors].sort((a, b) => a - b);
  const at = (q: number) => Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN) * 100) / 100;
  return { p50: at(0.5), p90: at(0.9), max: at(1) };
}

/** A share of 50-85 for the first border, either way round. */
const offset = (r: () => number) => {
  const share = 50 + r() * 35;
  return Math.round((r() < 0.5 ? share : 100 - share) * 10) / 10;
};

/** The face laid on a plain background as a scanner would give it, a little scaled, PNG or JPEG. */
async function scanOf(face: Buffer, r: () => number): Promise<Buffer> {
  const pad = () => 20 + Math.floor(r() * 60);
  const [left, top, right, bottom] = [pad(), pad(), pad(), pad()];
  const grey = 200 + Math.floor(r() * 50);
  const flat = await sharp({ create: { width: 630 + left + right, height: 880 + top + bottom, channels: 3, background: { r: grey, g: grey, b: grey } } })
    .composite([{ input: face, left, top }]).png().toBuffer();
  const scaled = sharp(flat).resize({ width: Math.round((630 + left + right) * (0.8 + r() * 0.5)) });
  return r() < 0.5 ? scaled.png().toBuffer() : scaled.jpeg({ quality: 85 + Math.floor(r() * 11) }).toBuffer();
}

/**
 * `n` faces measured as flat scans and `n` as perspective photos: the absolute errors of both
 * ratios (pooled), in percentage points, and how many measurements failed outright.
 */
export async function evalCentering(n: number): Promise<{ scans: Spread; photos: Spread; failures: number }> {
  const scans: number[] = [];
  const photos: number[] = [];
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const r = seeded(`eval-centering:${i}`);
    const truth = { left_right: offset(r), top_bottom: offset(r) };
    const face = await renderFace(CARDS[i % CARDS.length]!, { centering: truth });
    for (const [errors, bytes] of [[scans, await scanOf(face, r)], [photos, (await synthCenteringPhoto(face, { seed: `eval-${i}` })).photo]] as const) {
      try {
        const m = await measureCentering(bytes);
        errors.push(Math.abs(m.left_right - truth.left_right), Math.abs(m.top_bottom - truth.top_bottom));
      } catch (err) {
        if (!(err instanceof MeasureError)) throw err;
        failures++;
      }
    }
  }
  return { scans: spread(scans), photos: spread(photos), failures };
}
