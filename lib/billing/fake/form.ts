// Stripe's request encoding: application/x-www-form-urlencoded with nested keys
// (`line_items[0][price]=…`, `expand[]=…` or `expand[0]=…`, `metadata[plan]=…`). The same parser
// reads query strings of GET and DELETE requests.

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** `a[b][0][]` → ["a", "b", "0", ""] */
function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const segs = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  const rest = key.slice(open);
  for (let m = re.exec(rest); m; m = re.exec(rest)) segs.push(m[1] ?? "");
  return segs;
}

function nextIndex(o: FormObject): string {
  return String(Object.keys(o).filter((k) => /^\d+$/.test(k)).length);
}

function assign(root: FormObject, segs: string[], value: string): void {
  let o = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const seg = segs[i] === "" ? nextIndex(o) : (segs[i] as string);
    const child = o[seg];
    if (child === undefined || typeof child === "string" || Array.isArray(child)) {
      const created: FormObject = {};
      o[seg] = created;
      o = created;
    } else {
      o = child;
    }
  }
  const last = segs[segs.length - 1] as string;
  o[last === "" ? nextIndex(o) : last] = value;
}

/** Objects whose keys are all indexes become arrays (except under `metadata`, whose keys are free). */
function normalize(v: FormValue, key: string): FormValue {
  if (typeof v === "string" || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  for (const k of keys) v[k] = normalize(v[k] as FormValue, k);
  if (key !== "metadata" && keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k] as FormValue);
  }
  return v;
}

export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const part of body.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = decode(eq < 0 ? "" : part.slice(eq + 1));
    if (!key) continue;
    assign(root, splitKey(key), value);
  }
  for (const k of Object.keys(root)) root[k] = normalize(root[k] as FormValue, k);
  return root;
}

/** Encodes a flat record as a form body (for the pages' own forms and tests). */
export function encodeForm(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}
