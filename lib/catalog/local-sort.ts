import type { SQL } from "drizzle-orm";
import { col, type SortSpec } from "@/lib/api/paging";
import type { Lang } from "@/lib/api/params";
import { localNameSql } from "./queries/local-name";

// Apart from local-name.ts, which the schema imports (drizzle-kit loads it without the app's paths).

const localSorts = new WeakMap<SortSpec, Map<Lang, SortSpec>>();

/**
 * `spec` under `lang`: its `name` key sorts by the name shown in that language (a French list in
 * French order), and the list is one of its own, whose cursors another language's refuses as
 * another list's. Made once per spec and language.
 */
export function sortByLocalName(spec: SortSpec, lang: Lang | undefined, names: SQL, name: SQL): SortSpec {
  if (!lang) return spec;
  let byLang = localSorts.get(spec);
  if (!byLang) localSorts.set(spec, (byLang = new Map()));
  let local = byLang.get(lang);
  if (!local) {
    local = { ...spec, resource: `${spec.resource}:${lang}`, keys: { ...spec.keys, name: { columns: [col(localNameSql(names, name, lang), "text", false)] } } };
    byLang.set(lang, local);
  }
  return local;
}
