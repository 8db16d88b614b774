import sharp from "sharp";
import { measureCentering, MeasureError } from "@/lib/centering/measure";
import { renderFace, seeded, type FaceCard } from "./render";
import { synthCenteringPhoto } from "./synth";
import { BORDERS, centeringCasePhoto, centeringCases, LEVELS, TABLES, type Level } from "./synth-centering-photos";

// How far measured centering lies from the truth: faces drawn with known offsets (50/50 to
// 85/15 on each axis, either way), measured as flat scans and as phone photos in perspective.
// Every frame colour is among them, the Lightning frame close to the border's own yellow too.
// Two photo generators: synth.ts's synthCenteringPhoto over render.ts's yellow-bordered faces
// (the one lib/centering is tuned on, with the seeds `calib-*`), and the independent
// synth-centering-photos.ts (four border colours on four tables, three levels), which only
// the evaluation uses.

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

/**
 * An uncertainty (one standard uncertainty, pp) above which a measurement says it is not to be
 * trusted: the evaluation counts such answers apart from the confident ones.
 */
export const UNTRUSTED_PP = 2;

/** One axis measured against its truth. */
type Axis = { truth: number; measured: number; u: number };

/** A side flip: the truth clearly favours one side (2 points or more off 50/50) and the answer the other. */
export const isFlip = (a: { truth: number; measured: number }) => Math.abs(a.truth - 50) >= 2 && (a.truth - 50) * (a.measured - 50) < 0;

/** A flip the answer stands by: its uncertainty does not reach 50/50 (both are rounded to hundredths: a tie is no claim), so it claims the wrong side is the larger. */
export const isClaimedFlip = (a: Axis) => isFlip(a) && a.u + 0.005 < Math.abs(a.measured - 50);

export type Tally = {
  /** Axis measurements (two a photo) answered, and photos refused (no measurement). */
  axes: number; refused: number;
  /** Over every answered axis: error spread, share within 1 point, side flips, and those of them claimed (isClaimedFlip). */
  all: Spread & { within1: number; flips: number; claimed: number };
  /** Axes answered with uncertainty ≤ UNTRUSTED_PP: how many, and the same figures over them. */
  trusted: Spread & { n: number; within1: number; flips: number; claimed: number };
  /** Answers off by more than 2 points whose uncertainty said so (over UNTRUSTED_PP), of all answers off by more than 2. */
  flagged_wrong: string;
};

function tally(axes: Axis[], refused: number): Tally {
  const figures = (xs: Axis[]) => {
    const err = xs.map((a) => Math.abs(a.measured - a.truth));
    return { ...spread(err), within1: xs.length ? Math.round((1000 * err.filter((e) => e <= 1).length) / xs.length) / 10 : NaN, flips: xs.filter(isFlip).length, claimed: xs.filter(isClaimedFlip).length };
  };
  const trusted = axes.filter((a) => a.u <= UNTRUSTED_PP);
  const wrong = axes.filter((a) => Math.abs(a.measured - a.truth) > 2);
  return {
    axes: axes.length, refused, all: figures(axes), trusted: { n: trusted.length, ...figures(trusted) },
    flagged_wrong: `${wrong.filter((a) => a.u > UNTRUSTED_PP).length}/${wrong.length}`,
  };
}

export type PhotoReport = {
  level: Level; photos: number; overall: Tally;
  byBorder: Record<string, Tally>; byTable: Record<string, Tally>; byCell: Record<string, Tally>;
  /** Seconds spent measuring (not generating), per photo, p50. */
  measure_s: number;
};

/**
 * The independent generator's photos (synth-centering-photos.ts): every border colour on every
 * table, `perCell` photos each, at `level`, measured and tallied by border, by table, by both.
 */
export async function evalCenteringPhotos(level: Level, perCell: number, seedBase = "eval", log?: (line: string) => void): Promise<PhotoReport> {
  const rows: { border: string; table: string; axes: Axis[]; refused: boolean }[] = [];
  const times: number[] = [];
  for (const c of centeringCases(level, perCell, seedBase)) {
    const { photo } = await centeringCasePhoto(c);
    const t0 = performance.now();
    try {
      const m = await measureCentering(photo);
      times.push((performance.now() - t0) / 1000);
      const axes = [
        { truth: c.truth.left_right, measured: m.left_right, u: m.uncertainty.left_right },
        { truth: c.truth.top_bottom, measured: m.top_bottom, u: m.uncertainty.top_bottom },
      ];
      rows.push({ border: c.border, table: c.table, axes, refused: false });
      log?.(`${c.seed} truth ${c.truth.left_right}/${c.truth.top_bottom} got ${m.left_right}/${m.top_bottom} ± ${m.uncertainty.left_right}/${m.uncertainty.top_bottom}`);
    } catch (err) {
      if (!(err instanceof MeasureError)) throw err;
      rows.push({ border: c.border, table: c.table, axes: [], refused: true });
      log?.(`${c.seed} truth ${c.truth.left_right}/${c.truth.top_bottom} refused: ${err.message}`);
    }
  }
  const of = (keep: (r: (typeof rows)[number]) => boolean) => {
    const rs = rows.filter(keep);
    return tally(rs.flatMap((r) => r.axes), rs.filter((r) => r.refused).length);
  };
  const byBorder = Object.fromEntries(BORDERS.map((b) => [b, of((r) => r.border === b)]));
  const byTable = Object.fromEntries(TABLES.map((t) => [t, of((r) => r.table === t)]));
  const byCell = Object.fromEntries(BORDERS.flatMap((b) => TABLES.map((t) => [`${b}/${t}`, of((r) => r.border === b && r.table === t)])));
  return { level, photos: rows.length, overall: of(() => true), byBorder, byTable, byCell, measure_s: spread(times).p50 };
}

export { LEVELS as CENTERING_LEVELS };

/** A report's lines, as eval:vision prints them. */
export function formatPhotoReport(rep: PhotoReport): string[] {
  const f = (t: Tally) =>
    `p50 ${t.all.p50.toFixed(2).padStart(5)}  p90 ${t.all.p90.toFixed(2).padStart(6)}  ≤1pp ${String(t.all.within1).padStart(5)} %  flips ${String(t.all.flips).padStart(2)} (${t.all.claimed} claimed)  refused ${t.refused}` +
    `  | trusted ${t.trusted.n}/${t.axes}: p90 ${t.trusted.p90.toFixed(2)}  flips ${t.trusted.flips}  | wrong>2pp flagged ${t.flagged_wrong}`;
  const lines = [`  ${rep.level}: ${rep.photos} photos, measured in ${rep.measure_s.toFixed(2)} s (p50)`, `    all               ${f(rep.overall)}`];
  for (const [k, t] of Object.entries(rep.byBorder)) lines.push(`    border ${k.padEnd(10)} ${f(t)}`);
  for (const [k, t] of Object.entries(rep.byTable)) lines.push(`    table  ${k.padEnd(10)} ${f(t)}`);
  for (const [k, t] of Object.entries(rep.byCell)) lines.push(`    ${k.padEnd(17)} ${f(t)}`);
  return lines;
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
export async function evalCentering(n: number, seedBase = "eval-centering", log?: (line: string) => void): Promise<{ scans: Tally; photos: Tally; failures: number }> {
  const scans: Axis[] = [];
  const photos: Axis[] = [];
  let failures = 0;
  let refused = { scans: 0, photos: 0 };
  for (let i = 0; i < n; i++) {
    const r = seeded(`${seedBase}:${i}`);
    const truth = { left_right: offset(r), top_bottom: offset(r) };
    const face = await renderFace(CARDS[i % CARDS.length]!, { centering: truth });
    for (const [kind, errors, bytes] of [["scans", scans, await scanOf(face, r)], ["photos", photos, (await synthCenteringPhoto(face, { seed: `${seedBase}-${i}` })).photo]] as const) {
      try {
        const m = await measureCentering(bytes);
        errors.push({ truth: truth.left_right, measured: m.left_right, u: m.uncertainty.left_right }, { truth: truth.top_bottom, measured: m.top_bottom, u: m.uncertainty.top_bottom });
        log?.(`${kind} ${i} ${CARDS[i % CARDS.length]!.name} truth ${truth.left_right}/${truth.top_bottom} got ${m.left_right}/${m.top_bottom} ± ${m.uncertainty.left_right}/${m.uncertainty.top_bottom}`);
      } catch (err) {
        if (!(err instanceof MeasureError)) throw err;
        failures++;
        refused = { ...refused, [kind]: refused[kind] + 1 };
      }
    }
  }
  return { scans: tally(scans, refused.scans), photos: tally(photos, refused.photos), failures };
}
