import { byCatalogVersion } from "@/lib/catalog/memo";
import { badgeText, fmtDate, regionLabel, symbolUrl, type SetRow } from "./catalogue";

// Sets as a list of rows: symbol, name, release date, region and size. The catalogue's logos
// live on another host, which this site's pages do not load from: the app draws each set's
// symbol itself (/sets/{code}/symbol.svg, lib/catalog/symbol.ts).
//
// The rows are one HTML string, escaped here and kept per catalogue version, not a React tree:
// the sets page lists all 548 sets, and as elements each row went out twice (as HTML and again
// in the page's RSC payload, 610 KB in all) and was rendered on every visit (measured: p50 250 ms
// on the embedded default). The rows hold nothing interactive, so the markup is all they need.

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);

export function setRowsHtml(sets: SetRow[]): string {
  return sets.map((s) => {
    const href = `/sets/${encodeURIComponent(s.id)}`;
    const other = s.name_en && s.name_en !== s.name ? `<span class="muted"> · ${esc(s.name_en)}</span>` : "";
    const date = s.release_date ? ` datetime="${esc(s.release_date)}"` : "";
    return `<li><img class="set-symbol small" src="${esc(symbolUrl(s))}" alt="" width="60" height="24" loading="lazy" decoding="async" data-badge="${esc(badgeText(s))}"/>` +
      `<span class="set-main"><a href="${esc(href)}">${esc(s.name)}</a>${other}</span>` +
      `<span class="set-facts"><time${date}>${esc(fmtDate(s.release_date))}</time><span>${esc(regionLabel(s.print_region))}</span><span>${s.card_count} cards</span></span></li>`;
  }).join("");
}

/** `key` names the list (the catalogue version is added): its HTML is built once per version. */
export async function SetList({ sets, listKey }: { sets: SetRow[]; listKey: string }) {
  const html = await byCatalogVersion(`set-list-html:${listKey}`, async () => setRowsHtml(sets));
  return <ul className="set-list" dangerouslySetInnerHTML={{ __html: html }} />;
}
