import { sql } from "drizzle-orm";
import { localNameSql, LOCAL_NAME_LANGS } from "../../catalog/queries/local-name";
import {
  bigint, bigserial, date, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex,
} from "drizzle-orm/pg-core";

const stamps = {
  // Importers set these; updated_at moves only when the row's content really changed.
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  // Rows that vanish upstream are kept (nothing is lost) and hidden from the API.
  deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "string" }),
  // Hash of the upstream record as imported: unchanged records are skipped without a write.
  contentHash: text("content_hash").notNull(),
};

export const series = pgTable("series", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  names: jsonb("names").$type<Record<string, string>>().notNull(),
  // Words of the name(s), folded and joined by single spaces: what text search matches.
  nameFolded: text("name_folded").notNull(),
  setCount: integer("set_count").notNull().default(0),
  cardCount: integer("card_count").notNull().default(0),
  firstReleaseDate: date("first_release_date", { mode: "string" }),
  lastReleaseDate: date("last_release_date", { mode: "string" }),
  ...stamps,
}, (t) => [
  index("series_set_count_idx").on(t.setCount, t.id),
  index("series_name_idx").on(t.name, t.id),
]);

export const sets = pgTable("sets", {
  id: text("id").primaryKey(),
  // Case-insensitive identifiers, stored folded so lookups are one index probe.
  idLower: text("id_lower").notNull(),
  altId: text("alt_id"),
  ptcgoCode: text("ptcgo_code"),
  name: text("name").notNull(),
  // Words of the name(s), folded and joined by single spaces: what text search matches.
  nameFolded: text("name_folded").notNull(),
  names: jsonb("names").$type<Record<string, string>>().notNull(),
  seriesId: text("series_id").notNull(),
  printRegion: text("print_region"),
  printedTotal: integer("printed_total"),
  total: integer("total"),
  cardCount: integer("card_count").notNull().default(0),
  releaseDate: date("release_date", { mode: "string" }),
  languages: text("languages").array().notNull(),
  legalities: jsonb("legalities").$type<Record<string, string>>(),
  images: jsonb("images").$type<Record<string, string>>(),
  attrs: jsonb("attrs").$type<Record<string, unknown>>().notNull(),
  ...stamps,
}, (t) => [
  uniqueIndex("sets_id_lower_idx").on(t.idLower),
  uniqueIndex("sets_alt_id_idx").on(sql`lower(${t.altId})`),
  index("sets_ptcgo_code_idx").on(t.ptcgoCode),
  index("sets_series_idx").on(t.seriesId, t.releaseDate),
  index("sets_release_date_idx").on(t.releaseDate, t.id),
  index("sets_name_idx").on(t.name, t.id),
]);

export const cards = pgTable("cards", {
  id: text("id").primaryKey(),
  idLower: text("id_lower").notNull(),
  altId: text("alt_id"),
  setId: text("set_id").notNull(),
  seriesId: text("series_id").notNull(),
  printRegion: text("print_region"),
  number: text("number").notNull(),
  // Numeric part of the printed number, so 1S sorts next to 1 and 10 after 9.
  numberSort: integer("number_sort"),
  localId: text("local_id"),
  printedTotal: integer("printed_total"),
  name: text("name").notNull(),
  names: jsonb("names").$type<Record<string, string>>().notNull(),
  // Search columns over the names in every language: their folded words, and each whole
  // name as its words joined by single spaces (punctuation dropped), for phrases and `!`.
  nameTerms: text("name_terms").array().notNull(),
  nameKeys: text("name_keys").array().notNull(),
  supertype: text("supertype"),
  supertypeLc: text("supertype_lc"),
  subtypes: text("subtypes").array().notNull(),
  types: text("types").array().notNull(),
  // Folded copies of the printed values: q matches them case-insensitively through GIN.
  typesLc: text("types_lc").array().notNull(),
  subtypesLc: text("subtypes_lc").array().notNull(),
  hp: integer("hp"),
  rarity: text("rarity"),
  rarityLc: text("rarity_lc"),
  artist: text("artist"),
  artistSlug: text("artist_slug"),
  nationalDex: doublePrecision("national_pokedex_numbers").array().notNull(),
  regulationMark: text("regulation_mark"),
  releaseDate: date("release_date", { mode: "string" }),
  languages: text("languages").array().notNull(),
  attrs: jsonb("attrs").$type<Record<string, unknown>>().notNull(),
  // Filled by the price index job; null until a card has observations.
  indexEur: doublePrecision("index_eur"),
  lastPriceAt: timestamp("last_price_at", { withTimezone: true, mode: "string" }),
  // The index of the rows the trial is shown (English, ungraded): what trial lists sort and
  // filter by, so that the order never ranks a figure the trial's rows do not show.
  trialIndexEur: doublePrecision("trial_index_eur"),
  trialLastPriceAt: timestamp("trial_last_price_at", { withTimezone: true, mode: "string" }),
  // The index's move in percent over 7 and 30 days (refresh-index, from the movers' table):
  // list sort keys; null without a move over that window.
  change7dPct: doublePrecision("change_7d_pct"),
  change30dPct: doublePrecision("change_30d_pct"),
  ...stamps,
}, (t) => [
  // GIN indexes without a pending list: imports are rare, searches must be fast right after.
  uniqueIndex("cards_id_lower_idx").on(t.idLower),
  uniqueIndex("cards_alt_id_idx").on(sql`lower(${t.altId})`),
  index("cards_set_number_idx").on(t.setId, t.numberSort, t.number, t.id),
  index("cards_name_idx").on(t.name, t.id),
  // The name a list under lang sorts by (localNameSql), one index a language: a whole-catalogue
  // list sorted so took 100-200 ms a page through a sort of every card, 4 ms through its index.
  ...LOCAL_NAME_LANGS.map((lang) => index(`cards_name_${lang}_idx`).on(localNameSql(sql`${t.names}`, sql`${t.name}`, lang), t.id)),
  index("cards_number_idx").on(t.numberSort, t.number, t.id),
  index("cards_rarity_idx").on(t.rarity, t.id),
  index("cards_rarity_lc_idx").on(t.rarityLc),
  index("cards_hp_idx").on(t.hp, t.id),
  index("cards_release_date_idx").on(t.releaseDate, t.id),
  index("cards_updated_at_idx").on(t.updatedAt, t.id),
  // Descending sorts end with the ascending tiebreaker: (key desc, id asc) serves them.
  index("cards_updated_at_desc_idx").on(t.updatedAt.desc().nullsFirst(), t.id),
  index("cards_release_date_desc_idx").on(t.releaseDate.desc().nullsFirst(), t.id),
  index("cards_hp_desc_idx").on(t.hp.desc().nullsFirst(), t.id),
  index("cards_index_eur_desc_idx").on(t.indexEur.desc().nullsFirst(), t.id),
  index("cards_last_price_at_desc_idx").on(t.lastPriceAt.desc().nullsFirst(), t.id),
  index("cards_created_at_idx").on(t.createdAt, t.id),
  index("cards_artist_idx").on(t.artist, t.id),
  index("cards_artist_slug_idx").on(t.artistSlug),
  index("cards_index_eur_idx").on(t.indexEur, t.id),
  index("cards_trial_index_eur_idx").on(t.trialIndexEur, t.id),
  index("cards_trial_index_eur_desc_idx").on(t.trialIndexEur.desc().nullsFirst(), t.id),
  index("cards_last_price_at_idx").on(t.lastPriceAt, t.id),
  index("cards_change_7d_idx").on(t.change7dPct, t.id),
  index("cards_change_7d_desc_idx").on(t.change7dPct.desc().nullsFirst(), t.id),
  index("cards_change_30d_idx").on(t.change30dPct, t.id),
  index("cards_change_30d_desc_idx").on(t.change30dPct.desc().nullsFirst(), t.id),
  index("cards_region_idx").on(t.printRegion, t.id),
  index("cards_series_idx").on(t.seriesId),
  index("cards_supertype_lc_idx").on(t.supertypeLc),
  index("cards_regulation_mark_idx").on(t.regulationMark),
  index("cards_name_terms_idx").using("gin", t.nameTerms).with({ fastupdate: false }),
  index("cards_name_keys_idx").using("gin", t.nameKeys).with({ fastupdate: false }),
  index("cards_types_lc_idx").using("gin", t.typesLc).with({ fastupdate: false }),
  index("cards_subtypes_lc_idx").using("gin", t.subtypesLc).with({ fastupdate: false }),
  index("cards_dex_idx").using("gin", t.nationalDex).with({ fastupdate: false }),
  index("cards_languages_idx").using("gin", t.languages).with({ fastupdate: false }),
]);

// Every distinct folded word of every card name: a wildcard term (char*) is expanded here
// through a btree, then matched against cards.name_terms through GIN.
export const cardTerms = pgTable("card_terms", {
  term: text("term").primaryKey(),
}, (t) => [
  // Prefix LIKE through a btree whatever the database's collation.
  index("card_terms_pattern_idx").on(sql`${t.term} text_pattern_ops`),
]);

// One row: bumped by every import that writes anything, in the same transaction. Cached
// answers are valid exactly as long as this number stays.
export const catalogVersion = pgTable("catalog_version", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

// Ids a card was once known by (renamed upstream ids, removed cards): batch lookups offer them.
export const cardAliases = pgTable("card_aliases", {
  alias: text("alias").primaryKey(),
  cardId: text("card_id").notNull(),
  reason: text("reason").notNull(),
  createdAt: stamps.createdAt,
});

export const artists = pgTable("artists", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  // Words of the name(s), folded and joined by single spaces: what text search matches.
  nameFolded: text("name_folded").notNull(),
  cardCount: integer("card_count").notNull().default(0),
  setCount: integer("set_count").notNull().default(0),
  firstReleaseDate: date("first_release_date", { mode: "string" }),
  lastReleaseDate: date("last_release_date", { mode: "string" }),
  ...stamps,
}, (t) => [
  index("artists_card_count_idx").on(t.cardCount, t.slug),
  index("artists_name_idx").on(t.name, t.slug),
]);

export const sealedProducts = pgTable("sealed_products", {
  slug: text("slug").primaryKey(),
  sku: text("sku").notNull(),
  name: text("name").notNull(),
  // Words of the name(s), folded and joined by single spaces: what text search matches.
  nameFolded: text("name_folded").notNull(),
  names: jsonb("names").$type<Record<string, string>>().notNull(),
  productType: text("product_type").notNull(),
  setId: text("set_id"),
  seriesId: text("series_id"),
  releaseDate: date("release_date", { mode: "string" }),
  tcgplayerProductId: integer("tcgplayer_product_id"),
  attrs: jsonb("attrs").$type<Record<string, unknown>>().notNull(),
  indexEur: doublePrecision("index_eur"),
  lastPriceAt: timestamp("last_price_at", { withTimezone: true, mode: "string" }),
  // As the cards' (above).
  trialIndexEur: doublePrecision("trial_index_eur"),
  trialLastPriceAt: timestamp("trial_last_price_at", { withTimezone: true, mode: "string" }),
  ...stamps,
}, (t) => [
  uniqueIndex("sealed_sku_idx").on(sql`lower(${t.sku})`),
  index("sealed_name_idx").on(t.name, t.slug),
  index("sealed_release_date_idx").on(t.releaseDate, t.slug),
  index("sealed_set_idx").on(t.setId),
]);

// Image metadata for cards, sets and sealed products. Files arrive later (images job);
// until then a row records the upstream URL.
export const images = pgTable("images", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  ownerKind: text("owner_kind").notNull(), // card | set | sealed
  ownerId: text("owner_id").notNull(),
  face: text("face").notNull(), // FRONT | BACK | ART | LOGO | SYMBOL
  size: text("size").notNull(), // SMALL | NORMAL | LARGE
  sourceUrl: text("source_url"),
  storageKey: text("storage_key"),
  origin: text("origin").notNull().default("upstream"), // upstream | scan | rendered
  width: integer("width"),
  height: integer("height"),
  sha256: text("sha256"),
  // Download attempts of the source URL that failed, the last error, and when to try again.
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  retryAt: timestamp("retry_at", { withTimezone: true, mode: "string" }),
  updatedAt: stamps.updatedAt,
}, (t) => [
  uniqueIndex("images_owner_idx").on(t.ownerKind, t.ownerId, t.face, t.size),
]);

// Append-only feed of catalogue mutations. seq is the only order a mirror may rely on.
export const changes = pgTable("changes", {
  seq: bigserial("seq", { mode: "number" }).primaryKey(),
  kind: text("kind").notNull(), // CARD | SET | SEALED | PRICE | IMAGE
  entityId: text("entity_id").notNull(),
  op: text("op").notNull(), // created | updated | deleted
  fields: text("fields").array(),
  at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
}, (t) => [
  index("changes_kind_seq_idx").on(t.kind, t.seq),
  index("changes_entity_idx").on(t.entityId),
]);

// One row per ingest job: what /v1/status reports.
export const jobRuns = pgTable("job_runs", {
  job: text("job").primaryKey(),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true, mode: "string" }),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "string" }),
  contractOk: integer("contract_ok").notNull().default(1),
  lastError: text("last_error"),
  stats: jsonb("stats").$type<Record<string, unknown>>(),
});
