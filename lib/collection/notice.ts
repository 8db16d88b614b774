import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

// The collection page's notices (a quantity saved, an alert refused, an import's problems) come
// back in its query after a plain form post. They are signed by the server, so that a link can
// not make the site's own alert box say what the server never said (a phishing line).

const FIELDS = ["done", "error", "alert_error", "imported", "import_errors", "import_error_count"] as const;
export type Notice = Partial<Record<(typeof FIELDS)[number], string>>;

let key: Buffer | undefined;

function mac(n: Notice): Buffer {
  key ??= Buffer.from(hkdfSync("sha256", authSecret(), "pokeprice-notice-v1", "collection", 32));
  return createHmac("sha256", key).update(JSON.stringify(FIELDS.map((f) => n[f] ?? null))).digest().subarray(0, 16);
}

/** The query of a redirect back to the page with this notice. */
export function noticeQuery(n: Notice): URLSearchParams {
  const q = new URLSearchParams(n as Record<string, string>);
  q.set("sig", mac(n).toString("base64url"));
  return q;
}

/** The notice a query carries when the server signed it; nothing otherwise. */
export function readNotice(sp: Record<string, string | undefined>): Notice {
  const n: Notice = {};
  for (const f of FIELDS) if (typeof sp[f] === "string") n[f] = sp[f];
  const sig = Buffer.from(sp.sig ?? "", "base64url");
  const want = mac(n);
  return sig.length === want.length && timingSafeEqual(sig, want) ? n : {};
}
