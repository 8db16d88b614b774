// The API reference's view of an OpenAPI 3.1 document: plain data the page renders, computed by
// pure functions (no React, no I/O) so they can be tested on their own. Schemas become flat rows
// of a field table (depth gives the nesting); $ref, anyOf/oneOf, arrays, maps, nullable and enums
// are handled; named schemas are linked, not expanded, and listed once at the end of the page.

export type Json = Record<string, unknown>;

/** A piece of a type label: text, or the name of a component schema to link to. */
export type TypePart = { text: string; ref?: string };

export type FieldRow = {
  /** 0 for the top level of a body; each nested object, array item or variant adds one. */
  depth: number;
  name: string;
  /** Dotted path from the top of the body: `data.quotes.source` (array items add nothing). */
  path: string;
  type: TypePart[];
  required: boolean;
  nullable: boolean;
  description?: string;
  /** Allowed values, when the schema lists them. */
  enum?: unknown[];
  /** Constraints and hints as short sentences: default, ranges, lengths, pattern, example. */
  facts: string[];
  /** Identifies the shape of what is nested in this field, when something is (see dedupeShapes). */
  shape?: string;
  /** Set by dedupeShapes on the first of several fields with the same nested shape: its anchor. */
  anchor?: string;
  /** Set by dedupeShapes on a later one: where those fields are shown (its nested rows are left out). */
  same?: { anchor: string; label: string };
};

/** A body's schema: what it is as a whole, and its fields when it is an object. */
export type SchemaView = { type: TypePart[]; nullable: boolean; enum?: unknown[]; facts: string[]; description?: string; rows: FieldRow[] };

export type ParamView = {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  type: TypePart[];
  nullable: boolean;
  enum?: unknown[];
  facts: string[];
};

export type ErrorCodeView = { code: string; meaning: string };

/** An error code of the glossary: its status, meaning, and whether most operations can answer it. */
/** `common`: more than half of the operations answer it; `everywhere`: all of them do. */
export type ErrorEntry = ErrorCodeView & { status: string; common: boolean; everywhere: boolean };

export type ResponseView = {
  status: string;
  description: string;
  error: boolean;
  /** The error codes this status carries on this route, with their meaning. */
  codes: ErrorCodeView[];
  headers: HeaderView[];
  body?: { contentType: string; schema: SchemaView };
};

/** `meter`: one of the meter headers the document describes once (components.headers), linked rather than repeated. */
export type HeaderView = { name: string; type: TypePart[]; description?: string; facts: string[]; meter?: boolean };

/** One way to authenticate: the scheme's name, what to send, and the scheme's own description. */
export type AuthView = { label: string; detail: string; note?: string };

export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  /** The description's paragraphs, without the cost and plan paragraphs shown as facts. */
  description: string[];
  tags: string[];
  cost?: string;
  /** Minimum plan and how the trial reaches the route, in words. */
  plan: string;
  auth: AuthView[];
  parameters: ParamView[];
  body?: { contentType: string; required: boolean; schema: SchemaView };
  responses: ResponseView[];
  curl: string;
};

export type GroupView = { tag: string; id: string; operators: boolean; operations: OperationView[] };

export type ReferenceView = {
  title: string;
  version: string;
  description: string[];
  groups: GroupView[];
  schemas: { name: string; id: string; schema: SchemaView }[];
  /** Every error code the operations answer, by status then code. */
  errors: ErrorEntry[];
  /** The meter headers, described once. */
  meterHeaders: HeaderView[];
  operationCount: number;
};

export const METER_HEADERS_ANCHOR = "meter-headers";
const isMeterRef = (h: unknown, name: string) => isObj(h) && h.$ref === `#/components/headers/${name}` && name !== "X-Request-Id";

export const errorAnchor = (code: string): string => `error-${code}`;

const METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"] as const;
const MAX_DEPTH = 8;

const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** The component name a `#/components/schemas/X` reference points at. */
export function refName(ref: string): string {
  return decodeURIComponent(ref.slice(ref.lastIndexOf("/") + 1)).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The anchor of a component schema on the page. */
export const schemaAnchor = (name: string): string => `schema-${name}`;

const isNullSchema = (s: unknown): boolean =>
  isObj(s) && (s.type === "null" || ("const" in s && s.const === null) || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null));

/**
 * The schema without its null alternatives, and whether null is allowed: `anyOf`/`oneOf` with a
 * `{type: "null"}` member, `type: [X, "null"]`, `nullable: true` (OpenAPI 3.0), or `null` in an enum.
 * A single remaining alternative replaces the union; the outer description and default win.
 */
export function unwrapNullable(schema: Json): { schema: Json; nullable: boolean } {
  let s = schema;
  let nullable = false;
  for (let guard = 0; guard < 8; guard++) {
    const key = Array.isArray(s.anyOf) ? "anyOf" : Array.isArray(s.oneOf) ? "oneOf" : undefined;
    if (!key) break;
    const alts = (s[key] as unknown[]).filter(isObj);
    const rest = alts.filter((a) => !isNullSchema(a));
    if (rest.length < alts.length) nullable = true;
    if (rest.length === 1) {
      const outer = { ...s };
      delete outer[key];
      s = { ...rest[0], ...outer };
      continue;
    }
    if (rest.length < alts.length) s = { ...s, [key]: rest };
    break;
  }
  if (Array.isArray(s.type) && s.type.includes("null")) {
    nullable = true;
    const types = s.type.filter((t) => t !== "null");
    s = { ...s, type: types.length === 1 ? types[0] : types };
  }
  if (s.nullable === true) nullable = true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) {
    nullable = true;
    s = { ...s, enum: s.enum.filter((v) => v !== null) };
  }
  return { schema: s, nullable };
}

const variantsOf = (s: Json): Json[] | undefined => {
  const alts = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined) as unknown[] | undefined;
  return alts?.filter(isObj);
};

const hasProperties = (s: Json): boolean => isObj(s.properties) && Object.keys(s.properties).length > 0;

/** Members of an allOf merged into one object schema (properties and required lists joined). */
function mergeAllOf(s: Json): Json {
  if (!Array.isArray(s.allOf)) return s;
  const out: Json = { ...s };
  delete out.allOf;
  const properties: Json = { ...(isObj(s.properties) ? s.properties : {}) };
  const required = new Set<string>(Array.isArray(s.required) ? (s.required as string[]) : []);
  let merged = false;
  for (const m of s.allOf.filter(isObj)) {
    if (m.$ref) continue;
    const part = mergeAllOf(m);
    if (isObj(part.properties)) { Object.assign(properties, part.properties); merged = true; }
    for (const r of Array.isArray(part.required) ? (part.required as string[]) : []) required.add(r);
    if (!out.type && part.type) out.type = part.type;
  }
  if (merged || Object.keys(properties).length) out.properties = properties;
  if (required.size) out.required = [...required];
  return out;
}

/** The refs of an allOf that are not merged in (they stay links). */
const allOfRefs = (s: Json): string[] =>
  Array.isArray(s.allOf) ? s.allOf.filter(isObj).flatMap((m) => (typeof m.$ref === "string" ? [refName(m.$ref)] : [])) : [];

const jsonType = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);

/** A type as a short label: `string (date)`, `array of Card`, `map of integer`, `one of`, `Card`. */
export function typeLabel(schema: Json, depth = 0): TypePart[] {
  const { schema: s0 } = unwrapNullable(schema);
  const s = mergeAllOf(s0);
  if (typeof s.$ref === "string") return [{ text: refName(s.$ref), ref: refName(s.$ref) }];
  const refs = allOfRefs(s0);
  if (refs.length && !hasProperties(s)) return refs.flatMap((r, i) => [...(i ? [{ text: " and " }] : []), { text: r, ref: r }]);
  const variants = variantsOf(s);
  if (variants && variants.length > 1) {
    // A short union of plain types reads best inline: `string or integer`, `Card or Set`.
    const simple = variants.every((v) => typeof v.$ref === "string" || (!hasProperties(v) && !variantsOf(v) && v.type !== "array" && v.type !== "object"));
    if (simple && depth < 3) return variants.flatMap((v, i) => [...(i ? [{ text: " or " }] : []), ...typeLabel(v, depth + 1)]);
    return [{ text: "one of" }];
  }
  let type = s.type;
  if (type === undefined) {
    if ("const" in s) type = jsonType(s.const);
    else if (Array.isArray(s.enum) && s.enum.length) type = jsonType(s.enum[0]);
    else if (hasProperties(s) || isObj(s.additionalProperties)) type = "object";
    else if (s.items) type = "array";
  }
  if (Array.isArray(type)) return [{ text: type.join(" or ") }];
  if (type === "array") {
    const items = isObj(s.items) ? s.items : undefined;
    if (!items) return [{ text: "array" }];
    return [{ text: "array of " }, ...typeLabel(items, depth + 1)];
  }
  if (type === "object") {
    if (!hasProperties(s) && isObj(s.additionalProperties)) return [{ text: "map of " }, ...typeLabel(s.additionalProperties, depth + 1)];
    return [{ text: "object" }];
  }
  if (type === "string") {
    if (s.contentEncoding === "binary" || s.format === "binary" || typeof s.contentMediaType === "string") return [{ text: "binary" }];
    if (typeof s.format === "string") return [{ text: `string (${s.format})` }];
    return [{ text: "string" }];
  }
  if (typeof type === "string") return [{ text: typeof s.format === "string" ? `${type} (${s.format})` : type }];
  return [{ text: "any" }];
}

const show = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Constraints and hints of one schema, as short phrases. */
export function factsOf(schema: Json): string[] {
  const { schema: s } = unwrapNullable(schema);
  const out: string[] = [];
  if ("const" in s) out.push(`always ${show(s.const)}`);
  if (s.default !== undefined) out.push(`default ${show(s.default)}`);
  const min = s.minimum as number | undefined, max = s.maximum as number | undefined;
  const xmin = s.exclusiveMinimum as number | undefined, xmax = s.exclusiveMaximum as number | undefined;
  if (min !== undefined && max !== undefined) out.push(`${min} to ${max}`);
  else if (min !== undefined) out.push(`at least ${min}`);
  else if (max !== undefined) out.push(`at most ${max}`);
  if (typeof xmin === "number") out.push(`above ${xmin}`);
  if (typeof xmax === "number") out.push(`below ${xmax}`);
  if (typeof s.multipleOf === "number") out.push(`multiple of ${s.multipleOf}`);
  const lenMin = s.minLength as number | undefined, lenMax = s.maxLength as number | undefined;
  if (lenMin !== undefined && lenMax !== undefined) out.push(lenMin === lenMax ? `${lenMin} characters` : `${lenMin} to ${lenMax} characters`);
  else if (lenMin !== undefined && lenMin > 0) out.push(`at least ${lenMin} characters`);
  else if (lenMax !== undefined) out.push(`at most ${lenMax} characters`);
  const itMin = s.minItems as number | undefined, itMax = s.maxItems as number | undefined;
  if (itMin !== undefined && itMax !== undefined) out.push(`${itMin} to ${itMax} items`);
  else if (itMin !== undefined && itMin > 0) out.push(`at least ${itMin} items`);
  else if (itMax !== undefined) out.push(`at most ${itMax} items`);
  if (s.uniqueItems === true) out.push("unique items");
  // Date and time formats carry zod's long calendar regex: the format already says it.
  if (typeof s.pattern === "string" && s.pattern.length <= 60 && !(typeof s.format === "string" && /date|time/.test(s.format))) out.push(`pattern ${s.pattern}`);
  if (typeof s.contentMediaType === "string") out.push(`media type ${s.contentMediaType}`);
  if (isObj(s.propertyNames) && Array.isArray(s.propertyNames.enum)) out.push(`keys: ${s.propertyNames.enum.map(show).join(", ")}`);
  if (s.example !== undefined) out.push(`example ${show(s.example)}`);
  else if (Array.isArray(s.examples) && s.examples.length) out.push(`example ${show(s.examples[0])}`);
  if (s.deprecated === true) out.push("deprecated");
  if (s.readOnly === true) out.push("read-only");
  if (s.writeOnly === true) out.push("write-only");
  return out;
}

const enumOf = (schema: Json): unknown[] | undefined => {
  const { schema: s } = unwrapNullable(schema);
  if (Array.isArray(s.enum) && s.enum.length) return s.enum;
  // An array of enum values: the allowed values are the items'.
  if (s.type === "array" && isObj(s.items)) {
    const items = unwrapNullable(s.items).schema;
    if (Array.isArray(items.enum) && items.enum.length) return items.enum;
  }
  return undefined;
};

/** A short name for a variant of a union: the value of its constant property, else `option N`. */
function variantName(v: Json, i: number): string {
  const s = mergeAllOf(unwrapNullable(v).schema);
  if (isObj(s.properties)) {
    for (const [k, p] of Object.entries(s.properties)) {
      if (isObj(p) && "const" in p) return `${k} = ${show(p.const)}`;
      if (isObj(p) && Array.isArray(p.enum) && p.enum.length === 1) return `${k} = ${show(p.enum[0])}`;
    }
  }
  return `option ${i + 1}`;
}

/** Rows for what a schema contains: its properties, its items' properties, its variants. */
function childRows(schema: Json, depth: number, seen: Set<Json>, path: string): FieldRow[] {
  if (depth > MAX_DEPTH || seen.has(schema)) return [];
  const { schema: s0 } = unwrapNullable(schema);
  const s = mergeAllOf(s0);
  if (typeof s.$ref === "string") return [];
  const next = new Set(seen).add(schema);
  const variants = variantsOf(s);
  if (variants && variants.length > 1) {
    // Plain unions (`string or integer`, `Card or Set`) say everything in their label.
    if (!variants.some((v) => hasProperties(mergeAllOf(unwrapNullable(v).schema)) || variantsOf(v))) return [];
    return variants.flatMap((v, i) => fieldRows(variantName(v, i), v, false, depth, next, path, true));
  }
  if (hasProperties(s)) {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    return Object.entries(s.properties as Json).flatMap(([name, p]) => (isObj(p) ? fieldRows(name, p, required.has(name), depth, next, path) : []));
  }
  if (s.type === "array" && isObj(s.items)) return childRows(s.items, depth, next, path);
  if (isObj(s.additionalProperties)) return childRows(s.additionalProperties, depth, next, path);
  return [];
}

/** One field and everything nested in it. */
function fieldRows(name: string, schema: Json, required: boolean, depth: number, seen: Set<Json>, path: string, variant = false): FieldRow[] {
  const { schema: s, nullable } = unwrapNullable(schema);
  const row: FieldRow = {
    depth,
    name,
    path: `${path}${name}`,
    type: typeLabel(schema),
    required: variant ? false : required,
    nullable,
    ...(typeof s.description === "string" && s.description ? { description: s.description } : {}),
    ...(enumOf(schema) ? { enum: enumOf(schema) } : {}),
    facts: factsOf(schema),
  };
  const children = childRows(schema, depth + 1, seen, `${path}${name}.`);
  if (children.length) row.shape = JSON.stringify(schema);
  return [row, ...children];
}

/** A schema as the page shows it: its overall type and the table of its fields. */
export function schemaView(schema: Json): SchemaView {
  const { schema: s, nullable } = unwrapNullable(schema);
  return {
    type: typeLabel(schema),
    nullable,
    ...(enumOf(schema) ? { enum: enumOf(schema) } : {}),
    facts: factsOf(schema),
    ...(typeof s.description === "string" && s.description ? { description: s.description } : {}),
    rows: childRows(schema, 0, new Set(), ""),
  };
}

export function parameterView(p: Json): ParamView {
  const schema = isObj(p.schema) ? p.schema : {};
  const { schema: s, nullable } = unwrapNullable(schema);
  const description = typeof p.description === "string" ? p.description : typeof s.description === "string" ? s.description : undefined;
  const facts = factsOf(schema);
  if (p.example !== undefined && s.example === undefined) facts.push(`example ${show(p.example)}`);
  if (p.deprecated === true) facts.push("deprecated");
  return {
    name: String(p.name),
    in: String(p.in),
    required: p.required === true,
    ...(description ? { description } : {}),
    type: typeLabel(schema),
    nullable,
    ...(enumOf(schema) ? { enum: enumOf(schema) } : {}),
    facts,
  };
}

/** Paragraphs of a description (blank lines separate them). */
export const paragraphs = (text: unknown): string[] =>
  typeof text === "string" ? text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean) : [];

/** Inline markdown the document uses: `code` and **strong**; everything else is text. */
export type Inline = { kind: "text" | "code" | "strong"; text: string };
export function inlineMarkdown(text: string): Inline[] {
  const out: Inline[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ kind: "text", text: text.slice(last, m.index) });
    out.push(m[1] !== undefined ? { kind: "code", text: m[1] } : { kind: "strong", text: m[2] ?? "" });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

const TRIAL: Record<string, string> = {
  none: "not on the trial",
  credits: "the trial may call it with its credits after email confirmation",
  calls: "the trial has a few counted calls after email confirmation",
};

/** How an operation authenticates, from its security requirements and the document's schemes. */
export function authOf(op: Json, schemes: Json): AuthView[] {
  const security = Array.isArray(op.security) ? op.security.filter(isObj) : [];
  if (!security.length || security.every((req) => !Object.keys(req).length)) return [{ label: "None", detail: "No key needed." }];
  const out: AuthView[] = [];
  for (const req of security) {
    for (const name of Object.keys(req)) {
      const sch = isObj(schemes[name]) ? schemes[name] : {};
      let detail: string;
      if (sch.type === "apiKey") detail = `${String(sch.name)} ${String(sch.in)}`;
      else if (sch.type === "http") detail = `Authorization: ${sch.scheme === "bearer" ? "Bearer" : String(sch.scheme)}`;
      else detail = String(sch.type ?? "");
      out.push({ label: name, detail, ...(typeof sch.description === "string" ? { note: sch.description.replace(/\.$/, "") } : {}) });
    }
  }
  return out;
}

function planOf(op: Json, auth: AuthView[]): string {
  if (typeof op["x-min-plan"] === "string") {
    const trial = typeof op["x-trial"] === "string" ? TRIAL[op["x-trial"]] ?? op["x-trial"] : undefined;
    return `${op["x-min-plan"]}${trial ? `; ${trial}` : ""}`;
  }
  if (auth.length === 1 && auth[0]?.label === "None") return "none: no key needed";
  const security = Array.isArray(op.security) ? op.security : [];
  if (security.some((r) => isObj(r) && Object.keys(r).some((k) => /admin/i.test(k)))) return "operators only";
  return "every plan, the trial included";
}

/** The error codes a response carries: the X-Error-Code header's enum, else `CODE`: lines of its description. */
function codesOf(response: Json, meanings: Record<string, string>): ErrorCodeView[] {
  const headers = isObj(response.headers) ? response.headers : {};
  const h = isObj(headers["X-Error-Code"]) ? headers["X-Error-Code"] : undefined;
  const listed = h && isObj(h.schema) && Array.isArray(h.schema.enum) ? h.schema.enum.map(String) : [];
  const fromText = new Map<string, string>();
  for (const p of paragraphs(response.description)) {
    const m = /^`([A-Z][A-Z0-9_]+)`:\s*(.*)$/s.exec(p);
    if (m?.[1]) fromText.set(m[1], m[2] ?? "");
  }
  const codes = listed.length ? listed : [...fromText.keys()];
  return codes.map((code) => ({ code, meaning: meanings[code] ?? fromText.get(code) ?? "" }));
}

const STATUS_TEXT: Record<string, string> = {
  200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized",
  403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 413: "Content Too Large", 429: "Too Many Requests",
  500: "Internal Server Error", 503: "Service Unavailable",
};
export const statusText = (status: string): string => STATUS_TEXT[status] ?? "";

function resolve(node: unknown, doc: Json): Json {
  let n = node;
  for (let i = 0; i < 8 && isObj(n) && typeof n.$ref === "string" && n.$ref.startsWith("#/"); i++) {
    let target: unknown = doc;
    for (const part of n.$ref.slice(2).split("/")) target = isObj(target) ? target[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    n = target;
  }
  return isObj(n) ? n : {};
}

function headerView(name: string, header: Json): HeaderView {
  const schema = isObj(header.schema) ? header.schema : {};
  return { name, type: typeLabel(schema), ...(typeof header.description === "string" ? { description: header.description } : {}), facts: factsOf(schema) };
}

function responseView(status: string, response: Json, doc: Json, meanings: Record<string, string>): ResponseView {
  const error = Number(status) >= 400;
  const codes = error ? codesOf(response, meanings) : [];
  const headers = Object.entries(isObj(response.headers) ? response.headers : {})
    .filter(([name]) => !(error && name === "X-Error-Code"))
    .map(([name, h]) => ({ ...headerView(name, resolve(h, doc)), ...(isMeterRef(h, name) ? { meter: true } : {}) }));
  const content = isObj(response.content) ? response.content : {};
  const [contentType, media] = Object.entries(content)[0] ?? [];
  const description = codes.length ? "" : typeof response.description === "string" ? response.description : "";
  return {
    status,
    description,
    error,
    codes,
    headers,
    ...(contentType && isObj(media) && isObj(media.schema) ? { body: { contentType, schema: schemaView(media.schema) } } : {}),
  };
}

/** A plausible value for a schema, for the curl example's JSON body. */
export function exampleValue(schema: Json, doc: Json = {}, depth = 0): unknown {
  const s = mergeAllOf(unwrapNullable(typeof schema.$ref === "string" ? resolve(schema, doc) : schema).schema);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ("const" in s) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const variants = variantsOf(s);
  if (variants?.[0]) return exampleValue(variants[0], doc, depth + 1);
  if (depth > 5) return null;
  const type = Array.isArray(s.type) ? s.type[0] : s.type ?? (hasProperties(s) ? "object" : undefined);
  switch (type) {
    case "object": {
      const props = isObj(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const names = required.length ? required : Object.keys(props);
      return Object.fromEntries(names.filter((n) => isObj(props[n])).map((n) => [n, exampleValue(props[n] as Json, doc, depth + 1)]));
    }
    case "array": return isObj(s.items) ? [exampleValue(s.items, doc, depth + 1)] : [];
    case "integer": case "number": return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean": return true;
    case "string":
      if (s.format === "email") return "you@example.com";
      if (s.format === "date-time") return "2027-01-01T00:00:00Z";
      if (s.format === "date") return "2027-01-01";
      if (s.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      return "string";
    default: return null;
  }
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
// Query values keep the characters a reader expects to see (`:`, `,`, `*`); spaces and the rest are encoded.
const encodeQuery = (v: string): string => encodeURIComponent(v).replace(/%3A/gi, ":").replace(/%2C/gi, ",").replace(/%2A/gi, "*");

/**
 * One curl line for an operation: `$BASE` is the site's address, `$KEY` an API key, `$ADMIN_TOKEN`
 * the operator token. Path parameters and required values without an example read `<name>`.
 */
export function curlExample(method: string, path: string, op: Json, doc: Json): string {
  const params = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => resolve(p, doc));
  let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = params.find((x) => x.in === "path" && x.name === name);
    const ex = p && isObj(p.schema) ? (p.example ?? p.schema.example) : undefined;
    return ex !== undefined ? encodeURIComponent(String(ex)) : `<${name}>`;
  });
  const query = params
    .filter((p) => p.in === "query" && (p.required === true || p.example !== undefined || (isObj(p.schema) && p.schema.example !== undefined)))
    .map((p) => {
      const schema = isObj(p.schema) ? p.schema : {};
      const ex = p.example ?? schema.example ?? schema.default;
      return `${encodeQuery(String(p.name))}=${ex !== undefined ? encodeQuery(String(ex)) : `<${String(p.name)}>`}`;
    });
  if (query.length) url += `?${query.join("&")}`;
  const parts = ["curl"];
  if (method !== "get") parts.push(`-X ${method.toUpperCase()}`);
  const security = Array.isArray(op.security) ? op.security.filter(isObj) : [];
  const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const first = security.map((r) => Object.keys(r)[0]).find(Boolean);
  if (first) {
    const sch = isObj(schemes[first]) ? schemes[first] : {};
    if (/admin/i.test(first)) parts.push(`-H "Authorization: Bearer $ADMIN_TOKEN"`);
    else if (sch.type === "apiKey" && sch.in === "header") parts.push(`-H "${String(sch.name)}: $KEY"`);
    else parts.push(`-H "Authorization: Bearer $KEY"`);
  }
  for (const p of params.filter((x) => x.in === "header" && x.required === true)) {
    const schema = isObj(p.schema) ? p.schema : {};
    const ex = p.example ?? schema.example;
    parts.push(`-H "${String(p.name)}: ${ex !== undefined ? String(ex) : `<${String(p.name)}>`}"`);
  }
  const body = isObj(op.requestBody) ? resolve(op.requestBody, doc) : undefined;
  const content = body && isObj(body.content) ? body.content : {};
  if (isObj(content["application/json"])) {
    const schema = isObj(content["application/json"].schema) ? content["application/json"].schema : {};
    parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(exampleValue(schema, doc)))}`);
  } else if (isObj(content["multipart/form-data"])) {
    const schema = resolve(content["multipart/form-data"].schema, doc);
    const props = isObj(schema.properties) ? schema.properties : {};
    for (const [name, p] of Object.entries(props)) {
      const binary = isObj(p) && (p.contentMediaType !== undefined || p.format === "binary" || p.contentEncoding === "binary");
      if (binary) parts.push(`-F ${name}=@card.jpg`);
      else if (Array.isArray(schema.required) && schema.required.includes(name)) parts.push(`-F ${name}=<${name}>`);
    }
  }
  parts.push(`"$BASE${url}"`);
  return parts.join(" ");
}

/** Paragraphs of a description that the page shows as facts of their own (cost, minimum plan). */
const FACT_PARAGRAPH = /^\*\*(Cost|Minimum plan):\*\*/;

/** Tags a newcomer reads first; others follow alphabetically, and operator groups come last. */
const TAG_ORDER = ["Accounts", "Keys", "Cards", "Sets", "Artists", "Sealed", "Prices", "Changes", "Bulk", "Centering", "Vision", "Reference"];

/** A group is the operators' when all its paths are under an admin segment or its tag says so. */
const isOperatorGroup = (tag: string, ops: OperationView[]): boolean =>
  /^(operators?|admin)$/i.test(tag) || (ops.length > 0 && ops.every((o) => /\/admin(\/|$)/.test(o.path)));

export const tagAnchor = (tag: string): string => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;

export function operationView(method: string, path: string, op: Json, doc: Json, meanings: Record<string, string>): OperationView {
  const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const auth = authOf(op, schemes);
  const hasCost = typeof op["x-credit-cost"] === "string";
  const hasPlan = typeof op["x-min-plan"] === "string";
  const description = paragraphs(op.description).filter((p) => {
    const m = FACT_PARAGRAPH.exec(p);
    return !m || (m[1] === "Cost" ? !hasCost : !hasPlan);
  });
  const requestBody = isObj(op.requestBody) ? resolve(op.requestBody, doc) : undefined;
  const [contentType, media] = Object.entries(requestBody && isObj(requestBody.content) ? requestBody.content : {})[0] ?? [];
  const responses = Object.entries(isObj(op.responses) ? op.responses : {})
    .map(([status, r]) => responseView(status, resolve(r, doc), doc, meanings))
    .sort((a, b) => Number(a.status) - Number(b.status));
  return {
    id: typeof op.operationId === "string" ? op.operationId : `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, "-"),
    method,
    path,
    summary: typeof op.summary === "string" ? op.summary : `${method.toUpperCase()} ${path}`,
    description,
    tags: Array.isArray(op.tags) && op.tags.length ? op.tags.map(String) : ["Other"],
    ...(hasCost ? { cost: String(op["x-credit-cost"]) } : {}),
    plan: planOf(op, auth),
    auth,
    parameters: (Array.isArray(op.parameters) ? op.parameters : []).map((p) => parameterView(resolve(p, doc))),
    ...(contentType && isObj(media) && isObj(media.schema)
      ? { body: { contentType, required: requestBody?.required === true, schema: schemaView(media.schema) } }
      : {}),
    responses,
    curl: curlExample(method, path, op, doc),
  };
}

/** The error codes of all operations; those more than half of them answer are `common`, those all of them answer `everywhere`. */
export function errorGlossary(ops: OperationView[]): ErrorEntry[] {
  const byCode = new Map<string, ErrorEntry & { n: number }>();
  for (const o of ops) {
    for (const r of o.responses) {
      for (const c of r.codes) {
        const e = byCode.get(c.code) ?? { ...c, status: r.status, common: false, everywhere: false, n: 0 };
        e.n++;
        if (!e.meaning) e.meaning = c.meaning;
        byCode.set(c.code, e);
      }
    }
  }
  return [...byCode.values()]
    .map(({ n, ...e }) => ({ ...e, common: n * 2 > ops.length, everywhere: n === ops.length }))
    .sort((a, b) => Number(a.status) - Number(b.status) || a.code.localeCompare(b.code));
}

/** Nested shapes shorter than this are repeated where they occur; longer ones are shown once. */
const SHAPE_MIN_ROWS = 4;

const anchorSafe = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, "-");

/**
 * Shows each long nested shape once: the first field with a given nested shape (in the order
 * given) keeps its rows and gains an anchor; a later field with the same shape loses its nested
 * rows and points at the first. Bodies are [owner id, owner label, schema] in page order.
 * Returns the bodies' rows, changed in place.
 */
export function dedupeShapes(bodies: [string, string, SchemaView][]): void {
  const first = new Map<string, { row: FieldRow; anchor: string; label: string }>();
  for (const [owner, label, view] of bodies) {
    const out: FieldRow[] = [];
    for (let i = 0; i < view.rows.length; i++) {
      const row = view.rows[i] as FieldRow;
      out.push(row);
      if (!row.shape) continue;
      let end = i + 1;
      while (end < view.rows.length && (view.rows[end] as FieldRow).depth > row.depth) end++;
      if (end - i - 1 < SHAPE_MIN_ROWS) continue;
      const seen = first.get(row.shape);
      if (seen) {
        seen.row.anchor = seen.anchor;
        row.same = { anchor: seen.anchor, label: seen.label };
        i = end - 1;
      } else {
        first.set(row.shape, { row, anchor: anchorSafe(`${owner}.${row.path}`), label: `${label}: ${row.path}` });
      }
    }
    view.rows = out;
  }
}

/**
 * The whole reference: operations grouped by their first tag (each operation appears once), the
 * groups in reading order with the operators' last, and the named schemas.
 * `meanings` maps error codes to their sentence (lib/api/errors.ts), preferred over the document's text.
 */
export function referenceView(doc: Json, meanings: Record<string, string> = {}): ReferenceView {
  const info = isObj(doc.info) ? doc.info : {};
  const byTag = new Map<string, OperationView[]>();
  let count = 0;
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const view = operationView(method, path, op, doc, meanings);
      const tag = view.tags[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), view]);
      count++;
    }
  }
  const rank = (tag: string) => { const i = TAG_ORDER.indexOf(tag); return i < 0 ? TAG_ORDER.length : i; };
  const groups = [...byTag]
    .map(([tag, operations]) => ({ tag, id: tagAnchor(tag), operators: isOperatorGroup(tag, operations), operations }))
    .sort((a, b) => Number(a.operators) - Number(b.operators) || rank(a.tag) - rank(b.tag) || a.tag.localeCompare(b.tag));
  const components = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  const schemas = Object.entries(components)
    .filter(([, s]) => isObj(s))
    .map(([name, s]) => ({ name, id: schemaAnchor(name), schema: schemaView(s as Json) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const bodies: [string, string, SchemaView][] = [];
  for (const g of groups) {
    for (const o of g.operations) {
      if (o.body) bodies.push([`${o.id}.request`, `${o.summary} (request)`, o.body.schema]);
      for (const r of o.responses) if (r.body) bodies.push([`${o.id}.${r.status}`, o.summary, r.body.schema]);
    }
  }
  for (const c of schemas) bodies.push([c.id, c.name, c.schema]);
  dedupeShapes(bodies);
  const headerDocs = isObj(doc.components) && isObj(doc.components.headers) ? doc.components.headers : {};
  const meterHeaders = Object.entries(headerDocs).filter(([name]) => name !== "X-Request-Id").map(([name, h]) => headerView(name, isObj(h) ? h : {}));
  return {
    meterHeaders,
    errors: errorGlossary(groups.flatMap((g) => g.operations)),
    title: typeof info.title === "string" ? info.title : "API reference",
    version: typeof info.version === "string" ? info.version : "",
    description: paragraphs(info.description),
    groups,
    schemas,
    operationCount: count,
  };
}
