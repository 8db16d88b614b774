// A set's symbol, drawn here as SVG from what the catalogue knows of the set: its code (the
// printed PTCGO code, else its own code without the upstream's tcgdex prefix) on its series'
// colour. Why not the catalogue's logos and symbols: they are URLs on the upstream's host, and
// this site's pages load images only from their own origin (the CSP's img-src 'self'), nor
// could this deployment fetch them (no internet; the images job stores card faces, not set
// art). So the symbol says what it is, a code badge in the era's colour, rather than imitate
// the printed expansion symbol.

/** One colour per series (era), dark enough for white text (contrast 4.5:1 or more). */
const SERIES_COLOURS: Record<string, string> = {
  base: "#2f4a8a", gym: "#7a2e2e", neo: "#2d5f6f", "e-card": "#5c4a22", ex: "#8a2b2b", pop: "#2e6b45", np: "#45457a",
  "diamond-pearl": "#3b4f7c", platinum: "#4f5366", "heartgold-soulsilver": "#735511", "black-white": "#23272f",
  xy: "#1d5b86", "sun-moon": "#a3421a", "sword-shield": "#2a4c7c", "scarlet-violet": "#6a2e79", "mega-evolution": "#8a1f4b",
  other: "#4b5563",
};

/** A series this list does not know gets a stable colour from its id (same lightness, any hue). */
export function seriesColour(seriesId: string): string {
  const known = SERIES_COLOURS[seriesId];
  if (known) return known;
  let h = 0;
  for (const ch of seriesId) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return `hsl(${h % 360} 45% 30%)`;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const SYMBOL = { width: 120, height: 48 } as const;

/** The symbol as an SVG document: a rounded badge in the series' colour with the code in white. */
export function setSymbolSvg(o: { badge: string; seriesId: string; name: string }): string {
  const { width: w, height: h } = SYMBOL;
  const text = o.badge.toUpperCase().slice(0, 14);
  const room = w - 20;
  // Bold capitals and digits run up to about 0.74 em wide: long codes get a smaller size, and
  // beyond 7 characters (where fonts differ most) textLength holds them to the badge's inner width.
  const size = Math.max(11, Math.min(22, Math.floor(room / (Math.max(text.length, 1) * 0.74))));
  const fit = text.length > 7 ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : "";
  const colour = seriesColour(o.seriesId);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeXml(o.name)}">` +
    `<title>${escapeXml(o.name)}</title>` +
    `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="10" fill="${colour}"/>` +
    `<rect x="4.5" y="4.5" width="${w - 9}" height="${h - 9}" rx="7" fill="none" stroke="#fff" stroke-opacity="0.35"/>` +
    `<text x="${w / 2}" y="${h / 2}" dy="0.36em" text-anchor="middle" fill="#fff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" ` +
    `font-size="${size}" font-weight="700" letter-spacing="0.5"${fit}>${escapeXml(text)}</text></svg>`;
}
