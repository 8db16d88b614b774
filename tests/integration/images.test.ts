import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { resetEnvForTests } from "@/lib/env";
import { refreshImages, renderFaces } from "@/lib/images/jobs";
import { serveCardImage } from "@/lib/images/serve";
import { progress } from "@/lib/jobs/progress";
import { getJson } from "../helpers/api";
import { query } from "../helpers/db";

// Card images: downloads (with failures kept for a later retry), an operator's scans, faces
// rendered for cards without any image, and the app serving them in three sizes.

const quiet = () => progress("test", { quiet: true });
const GOOD = "base2-1";
const BAD = "base2-2";
const SCAN = "base2-3";
let server: Server;
let base = "";

const png = (w: number, h: number, colour: string) => sharp({ create: { width: w, height: h, channels: 3, background: colour } }).png().toBuffer();
const image = (id: string, size: string) => serveCardImage(new Request(`http://t/images/cards/${id}/front-${size}.webp`), id, `front-${size}.webp`);

beforeAll(async () => {
  const art = await png(734, 1024, "#3366cc");
  server = createServer((req, res) => {
    if (req.url === "/good.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(art);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await query("delete from images where owner_kind = 'card' and owner_id = any($1)", [[GOOD, BAD, SCAN]]);
  // The due downloads are exactly these two: every other due row (never stored, or a rendered
  // face waiting for its real image) is parked for the test, on a date that marks it as parked.
  await query(`update images set retry_at = '2999-01-01' where owner_kind = 'card' and source_url is not null
    and (storage_key is null or origin = 'rendered') and (retry_at is null or retry_at <= now())`);
  await query(`insert into images (owner_kind, owner_id, face, size, source_url) values
    ('card', $1, 'FRONT', 'LARGE', $3), ('card', $2, 'FRONT', 'LARGE', $4)`, [GOOD, BAD, `${base}/good.png`, `${base}/missing.png`]);
});

afterAll(async () => {
  await query("update images set retry_at = null where retry_at = '2999-01-01'");
  await new Promise((r) => server.close(r));
});

describe("the images job", () => {
  it("stores what it can download in three sizes and keeps failures for a later retry without failing", async () => {
    const r = await refreshImages(quiet());
    expect(r).toMatchObject({ stored: 1, failed: 1 });
    expect(r.errors[0]).toMatch(new RegExp(`^${BAD}: HTTP 404`));
    const stored = await query<{ size: string; origin: string; width: number }>("select size, origin, width from images where owner_id = $1 and storage_key is not null order by width", [GOOD]);
    expect(stored.map((s) => [s.size, s.width, s.origin])).toEqual([["SMALL", 245, "upstream"], ["NORMAL", 488, "upstream"], ["LARGE", 734, "upstream"]]);
    const [failed] = await query<{ attempts: number; due: boolean }>("select attempts, retry_at > now() as due from images where owner_id = $1", [BAD]);
    expect(failed).toEqual({ attempts: 1, due: true });
    // Not due yet: a second run tries nothing.
    expect(await refreshImages(quiet())).toMatchObject({ stored: 0, failed: 0 });
    const [change] = await query<{ n: number }>("select count(*)::int as n from changes where kind = 'IMAGE' and entity_id = $1", [GOOD]);
    expect(change!.n).toBeGreaterThan(0);
  });

  it("loads a folder of scans named by card id; a file that is no image, or names no card, is reported", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "scans-"));
    writeFileSync(path.join(dir, `${SCAN}.png`), await png(600, 840, "#cc3333"));
    writeFileSync(path.join(dir, "base2-4.jpg"), "not a picture");
    writeFileSync(path.join(dir, "no-such-card.png"), await png(60, 84, "#00cc00"));
    const r = await refreshImages(quiet(), { source: dir });
    expect(r).toMatchObject({ stored: 1, failed: 2 });
    expect(r.errors.join("\n")).toContain("no-such-card: no card has this id");
    const [row] = await query<{ origin: string }>("select origin from images where owner_id = $1 and size = 'LARGE'", [SCAN]);
    expect(row!.origin).toBe("scan");
  });
});

describe("rendered faces and the image route", () => {
  it("include=images links to the app's files, which serve WebP of the stated size with an ETag", async () => {
    const { body } = await getJson(`/v1/cards/${GOOD}?include=images`);
    const large = body.data.images.find((i: { size: string }) => i.size === "LARGE");
    expect(large).toMatchObject({ origin: "upstream", width: 734, url: expect.stringMatching(new RegExp(`/images/cards/${GOOD}/front-large\\.webp$`)) });
    const res = await image(GOOD, "small");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBe(245);
    const again = await serveCardImage(new Request("http://t/x", { headers: { "if-none-match": res.headers.get("etag")! } }), GOOD, "front-small.webp");
    expect(again.status).toBe(304);
  });

  it("a card without any image is rendered on its first request, and render-faces fills the rest", async () => {
    const [card] = await query<{ id: string }>(`select c.id from cards c where c.deleted_at is null
      and not exists (select 1 from images i where i.owner_id = c.id and i.owner_kind = 'card') order by c.id limit 1`);
    const res = await image(card!.id, "normal");
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(488);
    const [row] = await query<{ origin: string }>("select origin from images where owner_id = $1 and size = 'NORMAL'", [card!.id]);
    expect(row!.origin).toBe("rendered");
    const r = await renderFaces(quiet(), { limit: 2 });
    expect(r.rendered).toBe(2);
    expect((await image("no-such-card", "small")).status).toBe(404);
    expect((await image(card!.id, "huge")).status).toBe(404);
  });
});

describe("a face rendered on request and the card's answer", () => {
  const noImage = async (skip: number) => (await query<{ id: string }>(`select c.id from cards c where c.deleted_at is null
    and not exists (select 1 from images i where i.owner_id = c.id and i.owner_kind = 'card') order by c.id offset $1 limit 1`, [skip]))[0]!.id;

  it("renews the card's cached answer: the stored face's size shows at once, under another ETag", async () => {
    const id = await noImage(7);
    const before = await getJson(`/v1/cards/${id}?include=images`);
    expect(before.body.data.images.find((i: { size: string }) => i.size === "LARGE")).toMatchObject({ origin: "rendered", width: null });
    expect((await image(id, "large")).status).toBe(200);
    const after = await getJson(`/v1/cards/${id}?include=images`);
    expect(after.body.data.images.find((i: { size: string }) => i.size === "LARGE")).toMatchObject({ origin: "rendered", width: 734 });
    expect(after.res.headers.get("etag")).not.toBe(before.res.headers.get("etag"));
  });

  it("never hides the catalogue's own image: its links are given until the real image is stored", async () => {
    const id = await noImage(8);
    const upstream = "https://images.example.test/card-large.png";
    await query(`insert into images (owner_kind, owner_id, face, size, source_url, retry_at) values ('card', $1, 'FRONT', 'LARGE', $2, '2999-01-01')`, [id, upstream]);
    expect((await image(id, "large")).status).toBe(200);
    const { body } = await getJson(`/v1/cards/${id}?include=images`);
    expect(body.data.images).toEqual([{ face: "FRONT", size: "LARGE", url: upstream, origin: "upstream", width: null, height: null }]);
  });
});

describe("a record whose file is gone", () => {
  it("draws the face again and serves it, rather than a 404 for a card that exists", async () => {
    const [card] = await query<{ id: string }>(`select c.id from cards c where c.deleted_at is null
      and not exists (select 1 from images i where i.owner_id = c.id and i.owner_kind = 'card') order by c.id desc limit 1`);
    expect((await image(card!.id, "large")).status).toBe(200);
    const [row] = await query<{ storage_key: string }>("select storage_key from images where owner_id = $1 and size = 'LARGE'", [card!.id]);
    const { storage } = await import("@/lib/storage");
    await (await storage()).remove(row!.storage_key);
    const again = await image(card!.id, "large");
    expect(again.status).toBe(200);
    expect((await sharp(Buffer.from(await again.arrayBuffer())).metadata()).format).toBe("webp");
  });
});

describe("renders on request: limited per address, one per card", () => {
  const from = (ip: string, id: string, size = "small") =>
    serveCardImage(new Request(`http://t/images/cards/${id}/front-${size}.webp`, { headers: { [CLIENT_IP_HEADER]: ip } }), id, `front-${size}.webp`);
  /** Cards no test has given an image yet, from the end of the id order (render-faces works from its start). */
  const unrendered = async (n: number) => (await query<{ id: string }>(`select c.id from cards c where c.deleted_at is null
    and not exists (select 1 from images i where i.owner_id = c.id and i.owner_kind = 'card') order by c.id desc limit $1`, [n])).map((r) => r.id);
  const imageChanges = async (id: string, after: number) =>
    (await query<{ n: number }>("select count(*)::int as n from changes where kind = 'IMAGE' and entity_id = $1 and seq > $2", [id, after]))[0]!.n;
  const lastSeq = async () => (await query<{ s: number }>("select coalesce(max(seq), 0)::int as s from changes"))[0]!.s;
  let saved: string | undefined;

  beforeAll(() => {
    saved = process.env.RATE_LIMIT_IMAGES;
    process.env.RATE_LIMIT_IMAGES = "3/3600";
    resetEnvForTests();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.RATE_LIMIT_IMAGES;
    else process.env.RATE_LIMIT_IMAGES = saved;
    resetEnvForTests();
  });

  it("an address is refused after RATE_LIMIT_IMAGES renders (429, Retry-After); stored files and other addresses are not", async () => {
    const ids = await unrendered(5);
    const ip = "203.0.113.10";
    for (const id of ids.slice(0, 3)) expect((await from(ip, id)).status, id).toBe(200);
    const refused = await from(ip, ids[3]!);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const body = await refused.json();
    expect(body.error).toMatchObject({ code: "RATE_LIMITED", request_id: refused.headers.get("x-request-id") });
    expect(await query("select size from images where owner_id = $1", [ids[3]])).toEqual([]);
    // What is stored costs no render: the same address still gets it.
    expect((await from(ip, ids[0]!, "large")).status).toBe(200);
    // Other addresses render as before.
    expect((await from("203.0.113.11", ids[3]!)).status).toBe(200);
    expect((await from("2001:db8::11", ids[4]!)).status).toBe(200);
  });

  it("ten requests at once for a card without an image render it once, and count once", async () => {
    const [id] = await unrendered(1);
    const seq = await lastSeq();
    const sizes = ["small", "normal", "large"];
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => from("198.51.100.7", id!, sizes[i % 3])));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const widths = await Promise.all(answers.map(async (r) => (await sharp(Buffer.from(await r.arrayBuffer())).metadata()).width));
    expect(widths).toEqual(Array.from({ length: 10 }, (_, i) => [245, 488, 734][i % 3]));
    expect(await imageChanges(id!, seq)).toBe(1);
    // One render of the address's three: two more are allowed, then it is refused.
    const [a, b, c] = await unrendered(3);
    expect((await from("198.51.100.7", a!)).status).toBe(200);
    expect((await from("198.51.100.7", b!)).status).toBe(200);
    expect((await from("198.51.100.7", c!)).status).toBe(429);
  });
});

describe("rendered faces of the renderer before shared artwork (migration 0016)", () => {
  it("are forgotten and drawn again on the next request; a download's record is kept", async () => {
    const [card] = await query<{ id: string }>(`select c.id from cards c where c.deleted_at is null
      and not exists (select 1 from images i where i.owner_id = c.id and i.owner_kind = 'card') order by c.id desc offset 3 limit 1`);
    expect((await image(card!.id, "small")).status).toBe(200);
    const sql = readFileSync(path.join("drizzle", "0016_rendered_faces_v2.sql"), "utf8");
    // The migration's statement, limited to this file's two cards (other files serve faces meanwhile).
    await query(sql.replace(/;\s*$/, "") + " AND owner_id = any($1)", [[card!.id, GOOD]]);
    const forgotten = await query<{ storage_key: string | null }>("select storage_key from images where owner_id = $1", [card!.id]);
    expect(forgotten.length).toBe(3);
    expect(forgotten.every((r) => r.storage_key === null)).toBe(true);
    const [kept] = await query<{ storage_key: string | null }>("select storage_key from images where owner_id = $1 and size = 'SMALL'", [GOOD]);
    expect(kept!.storage_key).not.toBeNull();
    const { body } = await getJson(`/v1/cards/${card!.id}?include=images`);
    expect(body.data.images.find((i: { size: string }) => i.size === "SMALL")).toMatchObject({ origin: "rendered" });
    expect((await image(card!.id, "small")).status).toBe(200);
    const [drawn] = await query<{ storage_key: string | null; sha256: string | null }>("select storage_key, sha256 from images where owner_id = $1 and size = 'SMALL'", [card!.id]);
    expect(drawn!.storage_key).not.toBeNull();
    expect(drawn!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
