import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomString(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** `cus_…`, `sub_…`, `cs_test_…`: a prefix and 24 random characters (Stripe's ids look alike). */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomString(length)}`;
}
