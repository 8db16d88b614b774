import { html, raw, type Html } from "./html";
import {
  errorAnchor, inlineMarkdown, METER_HEADERS_ANCHOR, schemaAnchor, statusText, type ErrorEntry, type FieldRow, type HeaderView, type OperationView, type ParamView, type ReferenceView,
  type ResponseView, type SchemaView, type TypePart,
} from "./openapi-view";

// The API reference as one HTML document, from referenceView() (openapi-view.ts). Plain HTML and
// CSS, no script: a React page would also inline its whole tree again as the RSC payload (measured:
// 835 KB of HTML for 230 KB of markup), so the reference is written out here directly.
// Markup is lean on purpose: the page carries every operation and its schemas at once.

type Mark = "required" | "optional";

/** Inline markdown of the document's descriptions: `code` and **strong**. */
const md = (text: string): Html =>
  html`${inlineMarkdown(text).map((t) => (t.kind === "code" ? html`<code>${t.text}</code>` : t.kind === "strong" ? html`<strong>${t.text}</strong>` : t.text))}`;

const type = (parts: TypePart[], nullable?: boolean): Html =>
  html`<i>${parts.map((p) => (p.ref ? html`<a href="#${schemaAnchor(p.ref)}">${p.text}</a>` : p.text))}${nullable ? " or null" : ""}</i>`;

const value = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Description, allowed values and constraints of a field or parameter. */
const about = (description: string | undefined, values: unknown[] | undefined, facts: string[]): Html =>
  html`${description ? md(description) : ""}${values ? html`<code class="en">${values.map(value).join(" | ")}</code>` : ""}${facts.length ? html`<small>${facts.join(" · ")}</small>` : ""}`;

/**
 * A field table. In requests the required fields are marked; in answers, where nearly every field
 * is always present, the optional ones (may be absent) are.
 */
function fields(rows: FieldRow[], mark: Mark): Html {
  return html`<table class="fields"><tbody>${rows.map((r) => {
    const badge = mark === "required" ? (r.required ? html` <b class="rq">required</b>` : "") : r.required ? "" : html` <b>optional</b>`;
    const attrs = html`${r.anchor ? html` id="${r.anchor}"` : ""}${r.depth ? html` class="d${Math.min(r.depth, 6)}"` : ""}`;
    const same = r.same ? html`<small>Fields as in <a href="#${r.same.anchor}">${r.same.label}</a></small>` : "";
    return html`<tr${attrs}><td><code>${r.name}</code> ${type(r.type, r.nullable)}${badge}</td><td>${about(r.description, r.enum, r.facts)}${same}</td></tr>`;
  })}</tbody></table>`;
}

/** A body: its media type and overall type, then its fields. Long ones start folded. */
function body(label: string, contentType: string, schema: SchemaView, mark: Mark): Html {
  const head = html`${label ? `${label} ` : ""}<code>${contentType}</code> ${type(schema.type, schema.nullable)}${schema.rows.length ? html`<span class="n"> · ${schema.rows.length} field${schema.rows.length === 1 ? "" : "s"}</span>` : ""}`;
  const sub = schema.description || schema.enum || schema.facts.length ? html`<p class="sub">${about(schema.description, schema.enum, schema.facts)}</p>` : "";
  if (!schema.rows.length) return html`<div class="body"><p class="bh">${head}</p>${sub}</div>`;
  // Chromium's find in page still finds text in a folded body, and opens it.
  return html`<details class="body"${schema.rows.length <= 8 ? " open" : ""}><summary class="bh">${head}</summary>${sub}${fields(schema.rows, mark)}</details>`;
}

const params = (list: ParamView[]): Html =>
  html`<table class="fields"><tbody>${list.map((p) =>
    html`<tr><td><code>${p.name}</code> ${type(p.type, p.nullable)} <small>${p.in}</small>${p.required ? html` <b class="rq">required</b>` : ""}</td><td>${about(p.description, p.enum, p.facts)}</td></tr>`)}</tbody></table>`;

const codeLink = (code: string): Html => html`<a href="#${errorAnchor(code)}"><code>${code}</code></a>`;

/**
 * One status of an operation. Error codes most operations share (authentication, quota, internal)
 * link to the glossary; the operation's own codes also say what they mean.
 */
function response(r: ResponseView, common: Set<string>, everywhere: Set<string>): Html {
  // A status of codes every operation answers (413, 500) is said once, in the introduction.
  if (r.error && r.codes.length && r.codes.every((c) => everywhere.has(c.code))) return html``;
  const shared = r.codes.filter((c) => common.has(c.code));
  const own = r.codes.filter((c) => !common.has(c.code));
  const text = statusText(r.status);
  // The meter headers and X-Request-Id are on every keyed answer, described once (the introduction
  // and #meter-headers): an operation lists only its own.
  const listed = r.headers.filter((h) => !h.meter && h.name !== "X-Request-Id");
  const headers = !r.error && listed.length
    ? html`<span class="hd"> · headers ${listed.map((h, i) =>
        html`${i ? ", " : ""}<code>${h.name}</code>${h.facts[0]?.startsWith("always ") ? ` (${h.facts[0].slice(7)})` : ""}`)}</span>`
    : "";
  return html`<li${r.error ? html` class="er"` : ""}><p class="st"><b>${r.status}</b> ${text}${r.description && r.description !== text ? html` · ${md(r.description)}` : ""}${shared.map((c) => html` · ${codeLink(c.code)}`)}${headers}</p>${
    own.length ? html`<ul class="codes">${own.map((c) => html`<li>${codeLink(c.code)} ${md(c.meaning)}</li>`)}</ul>` : ""}${
    !r.error && r.body ? body("Body", r.body.contentType, r.body.schema, "optional") : ""}</li>`;
}

export function operation(op: OperationView, common: Set<string>, everywhere: Set<string> = new Set()): Html {
  const auth = op.auth.map((a, i) =>
    html`${i ? " or " : ""}${a.label === "None" ? a.detail : html`<code>${a.detail}</code>`}${a.note ? html` <small>(${a.note.charAt(0).toLowerCase()}${a.note.slice(1)})</small>` : ""}`);
  return html`<section class="op" id="${op.id}"><h3>${op.summary}</h3><a class="op-path" href="#${op.id}"><span class="m ${op.method}">${op.method.toUpperCase()}</span> <code>${op.path}</code></a>
<dl class="facts">${op.cost ? html`<div><dt>Cost</dt><dd>${op.cost}</dd></div>` : ""}<div><dt>Plan</dt><dd>${op.plan}</dd></div><div><dt>Authentication</dt><dd>${auth}</dd></div></dl>
${op.description.map((p) => html`<p>${md(p)}</p>`)}<pre class="curl"><code>${op.curl}</code></pre>
${op.parameters.length ? html`<h4>Parameters</h4>${params(op.parameters)}` : ""}${
  op.body ? html`<h4>Request body${op.body.required ? "" : " (optional)"}</h4>${body("", op.body.contentType, op.body.schema, "required")}` : ""}
<h4>Responses</h4><ul class="resps">${op.responses.map((r) => response(r, common, everywhere))}</ul></section>
`;
}

const SHORT: Record<string, string> = { delete: "DEL", options: "OPT" };

function nav(view: ReferenceView): Html {
  return html`<aside class="ref-nav" id="contents" aria-label="Contents"><a class="nav-close" href="#intro">Close</a>
<p class="nav-tag"><a href="#intro">Introduction</a></p>
${view.groups.map((g) => html`<p class="nav-tag"><a href="#${g.id}">${g.tag}</a></p><ul>${g.operations.map((o) =>
  html`<li><a href="#${o.id}"><span class="m ${o.method}">${SHORT[o.method] ?? o.method.toUpperCase()}</span> ${o.summary}</a></li>`)}</ul>
`)}<p class="nav-tag"><a href="#errors">Error codes</a></p><p class="nav-tag"><a href="#${METER_HEADERS_ANCHOR}">Meter headers</a></p><p class="nav-tag"><a href="#schemas">Schemas</a></p><ul class="nav-schemas">${view.schemas.map((s) => html`<li><a href="#${s.id}">${s.name}</a></li>`)}</ul>
<p class="nav-tag"><a href="/v1/openapi.json">OpenAPI document (JSON)</a></p></aside>`;
}

function meterHeaders(list: HeaderView[]): Html {
  if (!list.length) return html``;
  return html`<section id="${METER_HEADERS_ANCHOR}" class="grp"><h2>Meter headers</h2><p class="note">Answers to a key carry these (SPEC.md Limits);
operations link here rather than list them.</p><table class="fields errs"><tbody>${list.map((h) =>
  html`<tr><td><code>${h.name}</code></td><td>${h.description ? md(h.description) : ""}</td></tr>`)}</tbody></table></section>
`;
}

function errors(list: ErrorEntry[]): Html {
  return html`<section id="errors" class="grp"><h2>Error codes</h2><p class="note">Every error names its code in the body
(<code>error.code</code>) and in the <code>X-Error-Code</code> header. Those marked “most routes” can come from any operation
with a key; each operation lists the codes it can answer, but for those marked “every route”.</p><table class="fields errs"><tbody>${list.map((e) =>
  html`<tr id="${errorAnchor(e.code)}"><td><code>${e.code}</code> <i>${e.status}</i>${e.everywhere ? html` <b>every route</b>` : e.common ? html` <b>most routes</b>` : ""}</td><td>${md(e.meaning)}</td></tr>`)}</tbody></table></section>
`;
}

/** The reference: contents beside the introduction, operations by tag, error codes, schemas. */
export function reference(view: ReferenceView): Html {
  const signup = view.groups.flatMap((g) => g.operations).find((o) => o.id === "createFreeAccount");
  const hasError = view.schemas.some((s) => s.name === "Error");
  const common = new Set(view.errors.filter((e) => e.common).map((e) => e.code));
  const everywhere = view.errors.filter((e) => e.everywhere);
  const everywhereCodes = new Set(everywhere.map((e) => e.code));
  return html`<div class="ref">${nav(view)}<main class="ref-main"><a class="nav-open" href="#contents">Contents</a>
<section id="intro" class="intro"><h1>${view.title}</h1><p class="ver">Version ${view.version} · OpenAPI 3.1 · ${view.operationCount} operations ·
<a href="/v1/openapi.json">/v1/openapi.json</a></p>${view.description.map((p) => html`<p>${md(p)}</p>`)}
<p>In the examples, <code>$BASE</code> is this site’s address and <code>$KEY</code> an API key, sent as <code>X-Api-Key: $KEY</code>
or <code>Authorization: Bearer $KEY</code>.${signup ? html` A trial key takes one call: <a href="#${signup.id}">${signup.summary}</a>.` : ""}
Every error answers with ${hasError ? html`the <a href="#${schemaAnchor("Error")}">Error</a> envelope` : "one envelope"}; each operation lists the
<a href="#errors">error codes</a> it can answer${everywhere.length ? html`, beyond those any operation can: ${everywhere.map((e, i) => html`${i ? ", " : ""}${e.status} ${codeLink(e.code)}`)}` : ""}. Every answer carries <code>X-Request-Id</code>, and every answer to a key the
<a href="#${METER_HEADERS_ANCHOR}">meter headers</a>. Operator routes come last.</p></section>
${view.groups.map((g) => html`<section id="${g.id}" class="grp${g.operators ? " ops-admin" : ""}"><h2>${g.tag}</h2>${
  g.operators ? html`<p class="note">For the service’s operators, with the operator token; not part of the public API.</p>` : ""}
${g.operations.map((o) => operation(o, common, everywhereCodes))}</section>
`)}${errors(view.errors)}${meterHeaders(view.meterHeaders)}<section id="schemas" class="grp"><h2>Schemas</h2><p class="note">Named shapes the operations refer to.</p>
${view.schemas.map((s) => html`<section id="${s.id}" class="op schema"><h3>${s.name}</h3>${s.schema.description ? html`<p>${md(s.schema.description)}</p>` : ""}<p class="bh">${type(s.schema.type, s.schema.nullable)}</p>${
  // Named shapes are all answers' here (no request body refers to one): optional fields are marked.
  s.schema.rows.length ? fields(s.schema.rows, "optional") : ""}</section>
`)}</section></main></div>`;
}

export type Page = { title: string; description: string; css: string };

/**
 * The whole document. The header repeats app/site-header.tsx's links (a route handler cannot
 * render that component); keep the two alike.
 */
export function documentHtml(view: ReferenceView, page: Page): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title><meta name="description" content="${page.description}"><link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48"><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>${raw(page.css)}</style></head>
<body><div class="site docs-page"><header class="site-header"><a class="brand" href="/">PokéPrice API</a><nav aria-label="Main"><a href="/cards">Cards</a><a href="/sets">Sets</a><a href="/series">Series</a><a href="/movers">Movers</a><a href="/sealed">Sealed</a><a href="/artists">Artists</a><a href="/collection">Collection</a><a aria-current="page" href="/docs">API reference</a><a href="/v1/openapi.json">OpenAPI</a><a href="/dashboard">Dashboard</a><a href="/sign-in">Sign in</a></nav></header>
${reference(view)}</div></body></html>
`.value;
}
