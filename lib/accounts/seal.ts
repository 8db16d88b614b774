import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

// Secrets the service must show again later (the API key of an idempotent signup's replay) are
// stored sealed: AES-256-GCM under a key derived from the server's secret, so a copy of the
// database alone reveals none of them. `purpose` separates keys by use.

function keyFor(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret(), "pokeprice-seal-v1", purpose, 32));
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function seal(plain: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plain text, or undefined when the box was sealed under another secret or altered. */
export function unseal(box: string, purpose: string): string | undefined {
  const [v, iv, tag, body] = box.split(".");
  if (v !== "v1" || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
