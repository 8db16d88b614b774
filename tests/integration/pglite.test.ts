import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, dbKind } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { refreshCatalog } from "@/lib/catalog/import";
import { getJson } from "../helpers/api";

// The zero-setup default: no DATABASE_URL, an embedded PGlite database in a data folder,
// the same migrations and the same queries as PostgreSQL.
const SAMPLE = path.resolve(process.env.CATALOG_DIR ?? "../shared/data/catalog", "sample");
let dir: string;

beforeAll(async () => {
  await closeDb();
  dir = mkdtempSync(path.join(os.tmpdir(), "pglite-"));
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = dir;
  resetEnvForTests();
  const res = await refreshCatalog(SAMPLE);
  expect(res.ok, res.error).toBe(true);
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe("embedded PGlite default", () => {
  it("runs on PGlite when DATABASE_URL is unset", async () => {
    expect(await dbKind()).toBe("pglite");
  });

  it("serves the imported sample through the same routes", async () => {
    const { res, body } = await getJson("/v1/sets/base1/cards?limit=3&select=name,number");
    expect(res.status).toBe(200);
    expect(body.data.map((c: { number: string }) => c.number)).toEqual(["1", "2", "3"]);
    expect(body.meta.has_more).toBe(true);
    const next = await getJson(body.links.next);
    expect(next.body.data[0].number).toBe("4");
  });

  it("runs q searches and the Japanese set of the sample", async () => {
    const { body } = await getJson("/v1/cards?q=set.region:JP&limit=250&select=id");
    expect(body.data.length).toBe(50);
    expect(body.data.every((c: { id: string }) => c.id.startsWith("tcgdex-asia-SV2a-"))).toBe(true);
    const hit = await getJson("/v1/cards?q=name:charizard&select=name");
    expect(hit.body.data.map((c: { name: string }) => c.name)).toContain("Charizard");
  });

  it("keeps the data folder: a second import changes nothing", async () => {
    await closeDb();
    const again = await refreshCatalog(SAMPLE);
    expect(again.ok).toBe(true);
    expect(again.changes).toBe(0);
  });
});
