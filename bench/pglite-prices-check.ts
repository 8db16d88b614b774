// A one-off check that the price jobs and routes run on the embedded PGlite database.
delete process.env.DATABASE_URL;
process.env.PGLITE_DIR = "/tmp/pglite-prices-check";
async function main() {
  const path = await import("node:path");
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { generateDemo } = await import("@/lib/prices/demo");
  const { refreshPrices } = await import("@/lib/prices/refresh");
  const { refreshIndex } = await import("@/lib/prices/refresh-index");
  const { progress } = await import("@/lib/jobs/progress");
  const q = () => progress("check", { quiet: true });
  let t = Date.now();
  const cat = await refreshCatalog(path.resolve("../shared/data/catalog"), q());
  console.log("catalog", cat.ok, ((Date.now() - t) / 1000).toFixed(1), "s");
  t = Date.now();
  const demo = await generateDemo({ days: Number(process.argv[2] ?? 10), feedsDir: "/tmp/pglite-prices-check-feeds" }, q());
  console.log("demo", demo.points, "points", ((Date.now() - t) / 1000).toFixed(1), "s");
  t = Date.now();
  const f = await refreshPrices("/tmp/pglite-prices-check-feeds", q());
  console.log("refresh-prices", f.observations, ((Date.now() - t) / 1000).toFixed(1), "s");
  t = Date.now();
  const i = await refreshIndex(q());
  console.log("refresh-index", i.indexed, ((Date.now() - t) / 1000).toFixed(1), "s");
  const { getJson } = await import("../tests/helpers/api");
  for (const u of ["/v1/cards/base1-4/prices", "/v1/cards/base1-4/prices/history?window=7d&source=INDEX", "/v1/changes?kind=PRICE&limit=2", "/v1/prices/movers?window=7d&limit=2"]) {
    const { res, body } = await getJson(u);
    console.log(res.status, u, JSON.stringify(body).slice(0, 200));
  }
  process.exit(0);
}
void main();
