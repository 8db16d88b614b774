import { sql, type SQL } from "drizzle-orm";
import type { Lang } from "@/lib/api/params";

/** The `names` keys a language's name is read from, in order, before English (present.ts localName). */
const KEYS: Record<Lang, string[]> = { en: [], fr: ["fr"], de: ["de"], ja: ["ja"], it: ["it"], es: ["es", "es-mx"], pt: ["pt"], zh: ["zh-cn", "zh-tw"], ko: ["ko"] };

/**
 * present.ts localName in SQL, over a row's `names` (jsonb) and `name`: what a list sorts by
 * under `lang`. The keys are literals from KEYS, never a caller's text, so that the expression
 * is the one the cards' indexes hold (lib/db/schema/catalog.ts) and a list sorted by it pages
 * through an index.
 */
export function localNameSql(names: SQL, name: SQL, lang: Lang): SQL {
  const keys = [...KEYS[lang], "en"].map((k) => sql`${names}->>${sql.raw(`'${k}'`)}`);
  return sql`coalesce(${sql.join(keys, sql`, `)}, ${name})`;
}

export const LOCAL_NAME_LANGS = Object.keys(KEYS) as Lang[];
