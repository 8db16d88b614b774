import type { NewKey } from "./keys";
import type { KeyRecord } from "./types";

export function keyJson(k: (KeyRecord & { requests30d?: number }) | NewKey) {
  const now = Date.now();
  return {
    id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt, expired: k.expiresAt !== null && Date.parse(k.expiresAt) <= now,
    requests_30d: "requests30d" in k ? k.requests30d ?? 0 : 0,
    ...("secret" in k ? { secret: k.secret } : {}),
  };
}
