import crypto, { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 of `n` characters (each byte masked to 6 bits and rejected above 61: no bias). */
export function base62(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      const v = b & 63;
      if (v < 62) out += ALPHABET[v];
      if (out.length === n) break;
    }
  }
  return out;
}

export const newAccountId = () => `acct_${base62(20)}`;
export const newKeyId = () => `key_${base62(20)}`;

/** A recognisable prefix and 192 bits of entropy: `ppk_live_` + 32 base62 characters. */
export const KEY_PREFIX = "ppk_live_";
export const newSecret = () => `${KEY_PREFIX}${base62(32)}`;

// crypto.hash (Node 20.12+): one call instead of a Hash object, on every keyed request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

export function hashSecret(secret: string): string {
  return oneShot ? oneShot("sha256", secret, "hex") : createHash("sha256").update(secret).digest("hex");
}

/** What a listing shows of a key: its prefix and first characters. */
export const displayPrefix = (secret: string) => `${secret.slice(0, KEY_PREFIX.length + 6)}…`;

export const newToken = () => base62(40);
