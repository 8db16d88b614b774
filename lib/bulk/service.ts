import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Account } from "@/lib/accounts/types";
import { rows } from "@/lib/db/client";
import { upgradeStep } from "@/lib/meter/refusals";
import { storage } from "@/lib/storage";
import { BULK_TYPES } from "./export";

// GET /v1/bulk and GET /v1/bulk/{type}: the current files, and their bytes as stored.

type FileRow = { type: string; name: string; storage_key: string; size: number; sha256: string; rows: number; updated_at: string };

const DESCRIPTIONS: Record<string, string> = {
  cards: "Every card, as GET /v1/cards/{id} answers it.",
  sets: "Every set, as GET /v1/sets/{code} answers it.",
  sealed: "Every sealed product, as GET /v1/sealed/{id} answers it.",
  index: "The composite index of every priced card and sealed product: {card_id or sealed_id, index}.",
  prices: "Current quotes and index of every priced product, every row a paid plan sees: {card_id or sealed_id, index, quotes}.",
};

/**
 * Files whose rows a plan's filter would cut: paid plans only. The index file too: its entries
 * stand on Japanese, Chinese and other-language figures the trial's price routes withhold.
 */
const PAID_ONLY = new Set(["prices", "index"]);

/** The current file of each type built, by type. */
export async function bulkFiles(): Promise<FileRow[]> {
  return rows<FileRow>(sql`select type, name, storage_key, size, sha256, rows,
    to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at from bulk_files order by type`);
}

export async function listBulk(origin: string) {
  const data = (await bulkFiles()).map((f) => ({
    type: f.type, name: f.name, description: DESCRIPTIONS[f.type] ?? "", content_type: "application/gzip", format: "ndjson",
    size: f.size, sha256: f.sha256, rows: f.rows, updated_at: f.updated_at, paid_only: PAID_ONLY.has(f.type),
    download_url: `${origin}/v1/bulk/${f.type}`,
  }));
  return { body: { data, count: data.length } };
}

export async function downloadBulk(type: string, account: Account) {
  if (!(BULK_TYPES as readonly string[]).includes(type)) {
    throw new ApiError("NOT_FOUND", `No bulk file of type '${type}'. Types: ${BULK_TYPES.join(", ")}.`, { type, valid_values: BULK_TYPES });
  }
  if (PAID_ONLY.has(type) && account.plan === "trial") {
    // SPEC.md: before confirmation, a PLAN_REQUIRED message starts with 'Confirm your email'.
    const why = `The ${type} file holds graded and non-English figures the trial does not see: it needs a paid plan.`;
    throw new ApiError("PLAN_REQUIRED", account.emailConfirmedAt ? why : `Confirm your email and subscribe: ${why}`, {
      plan_required: "developer", next_step: upgradeStep("developer", "Bulk prices come with every paid plan."),
    });
  }
  const f = (await bulkFiles()).find((x) => x.type === type);
  const stored = f ? await (await storage()).get(f.storage_key) : null;
  if (!f || !stored) throw new ApiError("NOT_FOUND", `The ${type} file has not been built yet.`, { type });
  return {
    body: null,
    file: {
      stream: Readable.toWeb(stored.body) as ReadableStream<Uint8Array>, size: stored.size, etag: `"${f.sha256}"`,
      contentType: "application/gzip", filename: f.name,
    },
  };
}
