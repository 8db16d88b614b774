import Link from "next/link";
import type { Metadata } from "next";
import { ApiError } from "@/lib/api/errors";
import { listCards } from "@/lib/catalog/cards/list";
import { listSeries } from "@/lib/catalog/lists";
import { byCatalogVersion } from "@/lib/catalog/memo";
import { CardGrid, CardTable, cardRow, type CardRow } from "./card-views";
import { demoIndexed, demoPreparing, demoSpan, DEMO_LABEL, preparingText } from "./demo";
import { changeOf, composeQuery, FILTERS, LANGUAGES, RARITIES, REGIONS, sortOf, SORTS, TYPES, type FilterParam } from "./query";
import { SearchBox } from "./search-box";

// Search the catalogue with the API's own q language (listCards, as GET /v1/cards answers);
// prices are the composite index in EUR. The filters are a plain GET form: the server writes
// them into q, shows that q, and lists its cards as faces or as a table (?view=table).
// Catalogue order is the API's set-card order: (set, number_sort, number, id), so 2 follows 1
// and 10 follows 9, never 1, 10, 100, 101, 11 as text. The price range (min_eur, max_eur) is a
// q term on the index too (price:[5 TO 20]); the change sorts are the API's change_7d_pct and
// change_30d_pct keys, among the cards that have a move over that window.

export const metadata: Metadata = {
  title: "Search cards · PokéPrice",
  description: "Search 39,000 Pokémon cards in every language the catalogue prints, filter by set, series, region, rarity, type and price, and sort by price or its 7- and 30-day change.",
};
export const dynamic = "force-dynamic";

type Params = Record<string, string | undefined>;

const PAGE = 48;

export default async function CardsPage({ searchParams }: { searchParams: Promise<Params> }) {
  const sp = await searchParams;
  const typed = sp.q?.trim() || undefined;
  const filters = Object.fromEntries(FILTERS.map(({ param }) => [param, sp[param]?.trim() || undefined])) as Record<FilterParam, string | undefined>;
  const price = { min: sp.min_eur?.trim() || undefined, max: sp.max_eur?.trim() || undefined };
  const q = composeQuery(typed, filters, price) || undefined;
  const sort = sortOf(sp.sort);
  const change = changeOf(sort);
  const view = sp.view === "table" ? "table" : "grid";
  const onlyPriced = sp.priced === "1" || SORTS[sort].priced;
  const preparing = demoPreparing();

  // The URL of this search with some parameters changed (undefined drops one).
  const here = (change: Params) => {
    const u = new URLSearchParams();
    const all: Params = { q: typed, ...filters, min_eur: price.min, max_eur: price.max, priced: sp.priced === "1" ? "1" : undefined, sort: sort === "catalogue" ? undefined : sort, view: view === "table" ? "table" : undefined, ...change };
    for (const [k, v] of Object.entries(all)) if (v) u.set(k, v);
    const s = u.toString();
    return s ? `/cards?${s}` : "/cards";
  };

  let rows: CardRow[] = [];
  let demo = new Set<string>();
  let next: string | undefined;
  let error: string | undefined;
  const series = await byCatalogVersion("search-series", () => listSeries({ limit: 50, orderBy: "name" }, () => "").then((r) => r.body.data))
    .catch(() => []);
  const input = { q, limit: PAGE, include: "index", cursor: sp.cursor, orderBy: SORTS[sort].orderBy, priced: onlyPriced, moved: change, changes: true };
  try {
    // One search's page, kept per catalogue version: the same address again is read from memory.
    const found = await byCatalogVersion(`search:${JSON.stringify(input)}:${here({ cursor: "CURSOR" })}`, async () => {
      const { body } = await listCards(input, (p) => here({ cursor: p.cursor ? String(p.cursor) : undefined }));
      const list = (body.data as unknown as CardRow[]).map(cardRow);
      return { rows: list, next: body.links.next, demo: await demoIndexed(list.filter((r) => r.index_eur != null).map((r) => r.id)) };
    });
    rows = found.rows;
    next = found.next;
    demo = found.demo;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.message;
  }
  const apiHref = `/v1/cards?${new URLSearchParams({ ...(q ? { q } : {}), include: "index", orderBy: SORTS[sort].orderBy })}`;
  const empty = preparing && onlyPriced ? "No card has an index yet."
    : change ? `No card matches with a ${change} move of its index.` : "No card matches.";
  return (
    <>
      <h1>Cards</h1>
      <p className="sub">Search 39,000 cards in every language the catalogue prints. Prices are the composite index in EUR.</p>
      <form className="search" action="/cards" role="search" aria-label="Cards">
        <div className="search-row">
          <SearchBox defaultValue={typed} placeholder="Pikachu, ピカチュウ, name:charizard set.region:JP" />
          <button type="submit">Search</button>
        </div>
        <fieldset className="filters">
          <legend className="visually-hidden">Filters</legend>
          <label>Set code<input name="set" defaultValue={filters.set} placeholder="sv3pt5, base1, MEW" autoComplete="off" /></label>
          <label>Series
            <select name="series" defaultValue={filters.series ?? ""}>
              <option value="">Any</option>
              {series.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
            </select>
          </label>
          <label>Region
            <select name="region" defaultValue={filters.region ?? ""}>
              <option value="">Any</option>
              {REGIONS.map((r) => <option key={r} value={r}>{r}</option>)}
            </select>
          </label>
          <label>Language
            <select name="lang" defaultValue={filters.lang ?? ""}>
              <option value="">Any</option>
              {LANGUAGES.map((l) => <option key={l} value={l}>{l}</option>)}
            </select>
          </label>
          <label>Rarity<input name="rarity" defaultValue={filters.rarity} list="rarities" autoComplete="off" placeholder="Rare Holo" /></label>
          <datalist id="rarities">{RARITIES.map((r) => <option key={r} value={r} />)}</datalist>
          <label>Type
            <select name="type" defaultValue={filters.type ?? ""}>
              <option value="">Any</option>
              {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
          <fieldset className="price-range">
            <legend>Price (EUR)</legend>
            <label><span className="visually-hidden">Lowest price in EUR</span>
              <input name="min_eur" defaultValue={price.min} inputMode="decimal" placeholder="min" size={6} autoComplete="off" />
            </label>
            <span aria-hidden="true">–</span>
            <label><span className="visually-hidden">Highest price in EUR</span>
              <input name="max_eur" defaultValue={price.max} inputMode="decimal" placeholder="max" size={6} autoComplete="off" />
            </label>
          </fieldset>
          <label>Sort
            <select name="sort" defaultValue={sort}>
              {Object.entries(SORTS).map(([k, s]) => <option key={k} value={k}>{s.label}</option>)}
            </select>
          </label>
          <label className="check"><input type="checkbox" name="priced" value="1" defaultChecked={sp.priced === "1"} /> Has prices</label>
          {view === "table" && <input type="hidden" name="view" value="table" />}
        </fieldset>
      </form>
      <p className="q-shown" data-testid="q-shown">
        {q ? <>q = <code>{q}</code></> : <>No filter: every card.</>} <a href={apiHref} className="muted">same in the API</a>
      </p>
      {error && <p className="error-note" role="alert">{error}</p>}
      {preparing && (
        <p className="preparing-note" role="status" data-testid="prices-preparing">
          {preparingText(preparing)}: this server generates {demoSpan()} of demo prices on its first start. Cards without an index yet get one when it is done.
        </p>
      )}
      {!error && (
        <>
          <nav className="view-toggle" aria-label="View">
            <Link href={here({ view: undefined, cursor: undefined })} aria-current={view === "grid" ? "page" : undefined}>Grid</Link>
            <Link href={here({ view: "table", cursor: undefined })} aria-current={view === "table" ? "page" : undefined}>Table</Link>
          </nav>
          {!rows.length
            ? <p className="muted">{empty}</p>
            : view === "grid"
              ? <CardGrid rows={rows} demo={demo} pending={!!preparing} eagerFirst={4} change={change} />
              : <CardTable rows={rows} demo={demo} pending={!!preparing} change={change} />}
        </>
      )}
      {demo.size > 0 && <p className="demo-note">Figures marked {DEMO_LABEL} come from the service&apos;s demo market, not from real observations.</p>}
      {next && <p className="pager"><Link href={next}>Next page →</Link></p>}
    </>
  );
}
