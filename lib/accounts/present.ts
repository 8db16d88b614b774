import type { NewKey } from "./keys";
import type { KeyRecord } from "./types";

export function keyJson(k: KeyRecord | NewKey) {
  return {
    id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt,
    ...("secret" in k ? { secret: k.secret } : {}),
  };
}
