import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/client";

// Which cards share an illustration, and what their faces print besides it.
//
// The catalogue ships no images, so faces are rendered (render.ts). Real cards share artwork: a
// card and its reprints, and one card in English, Japanese, Chinese or Korean carry the same
// illustration and differ only in their text. The rendered faces follow that rule: the art is
// seeded by what identifies an illustration, the text by the printing.
//
// The illustration's key (artKeys), as far as the catalogue relates cards:
//   - who is drawn: a Pokémon by its national dex numbers (the same Pokémon in every language:
//     a Japanese card has no English name in the catalogue, but its dex number is that of the
//     English one) plus what the name adds to the species: the mechanic suffix (ex, EX, GX, V,
//     VMAX, VSTAR, BREAK, LV.X, δ, ★, Prime …), Mega, a regional form (Alolan, Galarian,
//     Hisuian, Paldean), Dark/Light/Shining/Radiant, and an owner ("Brock's", 「タケシの」);
//     a Trainer or Energy by its English name (else its Indonesian, else its display name);
//   - the same artist (folded; a card without a named artist keeps art of its own);
//   - the same lineage: the era of the set's block, Japanese and Chinese blocks mapped onto the
//     international one they were translated into (asia-SV ↔ sv, asia-S ↔ swsh, asia-PMCG ↔
//     base/gym/lc …); trainer kits, McDonald's and other loose blocks by their release date.
//     An artist who drew the same Pokémon again in a later era drew a new illustration.
//   - One set never prints one illustration under two numbers: when a set holds several cards
//     of one key (a regular and a full-art Charizard ex, the Unown letters, ex11's ten Ditto),
//     they are different illustrations, told apart by their order in the set: the k-th of them
//     shares art with the k-th of another set that also holds several (151's Charizard ex 6 and
//     183 with Pokémon Card 151's 006 and 185), never with a set's single card of the key.
//
// What the face prints besides (printing): the set's printed code (its ptcgo code, else the
// official abbreviation, else the tcgdex set id), the number and printed total, and a language
// mark (EN for international cards, else the card's first language: JA, ZH, KO, TH, ID).

export type ArtSource = {
  id: string; set_id: string; number: string; name: string; names: Record<string, string>; artist: string | null;
  dex: number[]; supertype: string | null; release_date: string | null; block: string | null; print_region: string | null;
  languages: string[]; printed_total: number | null; code: string | null;
};

export type Printing = { art: string; code: string; number: string; total: number | null; lang: string };

const fold = (s: string) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/** Block → lineage (era); Asian blocks map onto the international block they were translated into. */
const ERA: Record<string, string> = {
  base: "classic", gym: "classic", lc: "classic", "asia-PMCG": "classic",
  neo: "neo", "asia-neo": "neo", "asia-VS": "neo", "asia-web": "neo",
  ecard: "e", "asia-e": "e",
  ex: "ex", pop: "ex", "asia-ADV": "ex", "asia-PCG": "ex",
  dp: "dp", pl: "dp", "asia-DP": "dp", "asia-DPt": "dp",
  hgss: "hgss", col: "hgss", "asia-L": "hgss",
  bw: "bw", "asia-BW": "bw",
  xy: "xy", "asia-XY": "xy", "asia-XYb": "xy",
  sm: "sm", "asia-SM": "sm",
  swsh: "swsh", "asia-S": "swsh",
  sv: "sv", "asia-SV": "sv",
  me: "me", "asia-M": "me",
};
/** International start of each era: a loose block (trainer kits, McDonald's, misc) joins the era of its release date. */
const ERA_START: [string, string][] = [
  ["1996-01-01", "classic"], ["2000-12-16", "neo"], ["2002-09-15", "e"], ["2003-06-18", "ex"], ["2007-05-01", "dp"],
  ["2010-02-10", "hgss"], ["2011-04-25", "bw"], ["2014-02-05", "xy"], ["2017-02-03", "sm"], ["2020-02-07", "swsh"],
  ["2023-03-31", "sv"], ["2025-09-26", "me"],
];

export function eraOf(block: string | null, releaseDate: string | null): string {
  const e = block ? ERA[block] : undefined;
  if (e) return e;
  let era = "classic";
  for (const [from, name] of ERA_START) if (releaseDate && releaseDate >= from) era = name;
  return releaseDate ? era : `block:${block ?? "none"}`;
}

/** Mechanic suffixes, checked on the name's end (Latin letters print the same in every language). */
const SUFFIX = /(?:^|[\s\u3000\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Hangul}\p{Script=Thai}])(ex|EX|GX|V|VMAX|VSTAR|V-UNION|BREAK|LV\.? ?X|Lv\.? ?X|δ|☆|★|Prime|LEGEND|C|G|GL|FB|4|E|M)$/u;
const TAGS: [string, RegExp][] = [
  ["mega", /^(M |Mega |メガ|超级|超級|메가)/u],
  ["alola", /(Alolan|アローラ|阿羅拉|阿罗拉|알로라)/u], ["galar", /(Galarian|ガラル|伽勒爾|伽勒尔|가라르)/u],
  ["hisui", /(Hisuian|ヒスイ|洗翠|히스이)/u], ["paldea", /(Paldean|パルデア|帕底亞|帕底亚|팔데아)/u],
  ["dark", /^(Dark |わるい)/u], ["light", /^(Light |やさしい)/u], ["shining", /^(Shining |ひかる)/u], ["radiant", /^(Radiant |かがやく)/u],
  ["owner", /('s |’s |の)/u],
];

function who(c: ArtSource): string {
  const name = c.names.en ?? c.names.ja ?? c.names["zh-tw"] ?? c.names["zh-cn"] ?? c.names.ko ?? c.name;
  if (c.supertype === "Pokémon" && c.dex.length) {
    const suffix = SUFFIX.exec(name.trim())?.[1]?.replace(/\s|\./g, "").toUpperCase() ?? "";
    const tags = TAGS.filter(([, re]) => re.test(name)).map(([t]) => t);
    return `p:${[...c.dex].sort((a, b) => a - b).join("+")}:${suffix}:${tags.join(",")}`;
  }
  return `n:${fold(c.names.en ?? c.names.id ?? c.name)}`;
}

const numberOrder = (n: string) => {
  const d = /\d+/.exec(n);
  return d ? Number(d[0]) : Number.MAX_SAFE_INTEGER;
};

const lang = (c: ArtSource) => (c.print_region === "WEST" || c.languages.includes("en") ? "EN" : (c.languages[0] ?? "ja").slice(0, 2).toUpperCase());

/** Every card's art seed and printed text. */
export function printings(cards: ArtSource[]): Map<string, Printing> {
  const keyOf = new Map<string, string>();
  const members = new Map<string, ArtSource[]>();
  for (const c of cards) {
    const artist = c.artist ? fold(c.artist) : "";
    const key = artist ? `${who(c)}|${artist}|${eraOf(c.block, c.release_date)}` : `id:${c.id}`;
    keyOf.set(c.id, key);
    const m = members.get(key);
    if (m) m.push(c);
    else members.set(key, [c]);
  }
  // A set that holds several cards of one key: those are different illustrations.
  for (const [key, m] of members) {
    if (m.length < 2) continue;
    const perSet = new Map<string, ArtSource[]>();
    for (const c of m) (perSet.get(c.set_id) ?? perSet.set(c.set_id, []).get(c.set_id)!).push(c);
    for (const inSet of perSet.values()) {
      if (inSet.length < 2) continue;
      inSet.sort((a, b) => numberOrder(a.number) - numberOrder(b.number) || a.number.localeCompare(b.number));
      inSet.forEach((c, k) => keyOf.set(c.id, `${key}|#${k + 1}`));
    }
  }
  const out = new Map<string, Printing>();
  for (const c of cards) out.set(c.id, { art: keyOf.get(c.id)!, code: (c.code ?? c.set_id).slice(0, 10), number: c.number, total: c.printed_total, lang: lang(c) });
  return out;
}

/** Groups of cards that share their art: how many groups, and how many cards are in them. */
export function sharedArtStats(p: Map<string, Printing>): { groups: number; cards: number; largest: number } {
  const size = new Map<string, number>();
  for (const v of p.values()) size.set(v.art, (size.get(v.art) ?? 0) + 1);
  let groups = 0, cards = 0, largest = 0;
  for (const n of size.values()) if (n > 1) { groups++; cards += n; largest = Math.max(largest, n); }
  return { groups, cards, largest };
}

/** The live catalogue's cards as artKeys needs them. */
export async function artSources(): Promise<ArtSource[]> {
  return rows<ArtSource>(sql`
    select c.id, c.set_id, c.number, c.name, c.names, c.artist, coalesce(c.national_pokedex_numbers, '{}')::int[] as dex, c.supertype,
      c.release_date::text as release_date, s.attrs->>'block_id' as block, c.print_region, c.languages, coalesce(c.printed_total, s.printed_total) as printed_total,
      coalesce(s.ptcgo_code, s.attrs->'abbreviations'->>'official', s.attrs->>'tcgdex_id') as code
    from cards c join sets s on s.id = c.set_id where c.deleted_at is null order by c.id`);
}

const TTL_MS = 10 * 60_000;
let cached: { at: number; map: Promise<Map<string, Printing>> } | null = null;

/** The catalogue's printings, computed once and kept ten minutes (a catalogue import is rare). */
export function catalogPrintings(): Promise<Map<string, Printing>> {
  if (!cached || Date.now() - cached.at > TTL_MS) {
    const map = artSources().then(printings);
    cached = { at: Date.now(), map };
    map.catch(() => { cached = null; });
  }
  return cached.map;
}

/** A face row completed with its art seed and printed text (the image route and jobs render it). */
export async function withPrinting<T extends { id: string }>(card: T): Promise<T & Partial<Printing>> {
  const p = (await catalogPrintings()).get(card.id);
  return p ? { ...p, ...card } : card;
}
