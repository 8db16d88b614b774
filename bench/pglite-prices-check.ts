// A one-off check that the price jobs and routes run on the embedded PGlite database.
delete process.env.DATABASE_URL;
process.env.PGLITE_DIR = "/tmp/pglite-prices-check";
async function main() {
  const path = await import("node:path");
  const { refreshCatalog } = await import("@/lib/catalog/import");
  const { runDemoMarket } = await import("@/lib/prices/demo-market");
  const { progress } = await import("@/lib/jobs/progress");
  const q = () => progress("check", { quiet: true });
  const t = Date.now();
  const cat = await refreshCatalog(path.resolve("../shared/data/catalog"), q());
  console.log("catalog", cat.ok, ((Date.now() - t) / 1000).toFixed(1), "s");
  const m = await runDemoMarket({ days: Number(process.argv[2] ?? 10), feedsDir: "/tmp/pglite-prices-check-feeds", progress: q });
  console.log("demo", m.demo.points, "points", m.demo.seconds.toFixed(1), "s");
  console.log("refresh-prices", m.prices.observations, m.prices.seconds.toFixed(1), "s");
  console.log("refresh-index", m.index.indexed, m.index.seconds.toFixed(1), "s");
  const { getJson } = await import("../tests/helpers/api");
  for (const u of ["/v1/cards/base1-4/prices", "/v1/cards/base1-4/prices/history?window=7d&source=INDEX", "/v1/changes?kind=PRICE&limit=2", "/v1/prices/movers?window=7d&limit=2"]) {
    const { res, body } = await getJson(u);
    console.log(res.status, u, JSON.stringify(body).slice(0, 200));
  }
  process.exit(0);
}
void main();
