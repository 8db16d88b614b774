import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createGunzip } from "node:zlib";
import type { z } from "zod";
import { UpstreamCard, UpstreamSealed, UpstreamSeries, UpstreamSet, type Upstream } from "./upstream";

/** The upstream broke its contract: nothing is imported and /v1/status says why. */
export class ContractError extends Error {
  override name = "ContractError";
}

const FILES = {
  series: { file: "series.ndjson", schema: UpstreamSeries, required: true },
  sets: { file: "sets.ndjson", schema: UpstreamSet, required: true },
  cards: { file: "cards.ndjson", schema: UpstreamCard, required: true },
  sealed: { file: "sealed_products.ndjson", schema: UpstreamSealed, required: false },
} as const;

function locate(dir: string, base: string): string | undefined {
  for (const name of [`${base}.gz`, base]) {
    const p = path.join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

async function readFile<S extends z.ZodType>(file: string, schema: S, onRow: () => void): Promise<z.infer<S>[]> {
  const input = createReadStream(file);
  const stream = file.endsWith(".gz") ? input.pipe(createGunzip()) : input;
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const out: z.infer<S>[] = [];
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (!line.trim()) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new ContractError(`${path.basename(file)} line ${n}: not valid JSON`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ContractError(
          `${path.basename(file)} line ${n}: ${issue.path.join(".") || "(row)"}: ${issue.message}`,
        );
      }
      out.push(parsed.data);
      onRow();
    }
  } catch (err) {
    if (err instanceof ContractError) throw err;
    throw new ContractError(`${path.basename(file)}: unreadable (${(err as Error).message})`);
  } finally {
    input.destroy();
  }
  return out;
}

/** Reads and validates a whole upstream folder; throws ContractError on the first violation. */
export async function readUpstream(dir: string, onRow: () => void = () => {}): Promise<Upstream> {
  if (!existsSync(dir)) throw new ContractError(`source folder not found: ${dir}`);
  const result: Partial<Upstream> = {};
  for (const [key, spec] of Object.entries(FILES) as [keyof Upstream, (typeof FILES)[keyof Upstream]][]) {
    const file = locate(dir, spec.file);
    if (!file) {
      if (spec.required) throw new ContractError(`${spec.file}(.gz) missing in ${dir}`);
      result[key] = [];
      continue;
    }
    (result as Record<string, unknown>)[key] = await readFile(file, spec.schema, onRow);
  }
  const up = result as Upstream;
  checkReferences(up);
  return up;
}

function checkReferences(up: Upstream): void {
  const duplicate = (ids: string[], what: string) => {
    const seen = new Set<string>();
    for (const id of ids) {
      const k = id.toLowerCase();
      if (seen.has(k)) throw new ContractError(`${what}: duplicate id ${id}`);
      seen.add(k);
    }
  };
  duplicate(up.series.map((s) => s.id), "series");
  duplicate(up.sets.map((s) => s.id), "sets");
  duplicate(up.cards.map((c) => c.id), "cards");
  duplicate(up.sealed.map((s) => s.id), "sealed_products");
  const seriesIds = new Set(up.series.map((s) => s.id));
  for (const s of up.sets) {
    if (!seriesIds.has(s.series_id)) throw new ContractError(`sets: ${s.id} names unknown series ${s.series_id}`);
  }
  const setIds = new Set(up.sets.map((s) => s.id));
  for (const c of up.cards) {
    if (!setIds.has(c.set_id)) throw new ContractError(`cards: ${c.id} names unknown set ${c.set_id}`);
  }
  if (up.sets.length === 0 || up.cards.length === 0) throw new ContractError("sets or cards file is empty");
}
