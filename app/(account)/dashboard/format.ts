import type { z } from "zod";
import type { RequestObject, UsageResponse } from "@/lib/usage/schemas";

// What the dashboard's usage pages share: the published shapes they draw, and their formats.
// Times are shown in UTC, as the API's buckets and days are.

export type Analytics = z.output<typeof UsageResponse>["data"]["analytics"];
export type Sums = Analytics["totals"];
export type RequestRow = z.output<typeof RequestObject>;

export const n = (v: number) => v.toLocaleString("en-US");

/** 14 Mar 2026, 09:41:07 UTC */
export function when(iso: string, seconds = true): string {
  const d = new Date(iso);
  const day = d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hour12: false, timeZone: "UTC" });
  return `${day}, ${time}`;
}

/** 14 Mar 2026 */
export const day = (iso: string | null, none = "never") =>
  iso ? new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }) : none;

/** A first value of a query parameter. */
export const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * A request id out of whatever was pasted: the bare id, an `X-Request-Id: …` header line, or the
 * error envelope's JSON (`"request_id": "req_…"`). Ids are 8 to 128 of [A-Za-z0-9._:-].
 */
export function pastedRequestId(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const t = text.trim();
  const labelled = /(?:x-request-id|request_id|request id)["']?\s*[:=]\s*["']?([A-Za-z0-9._:-]{8,128})/i.exec(t);
  if (labelled) return labelled[1];
  const req = /\breq_[0-9a-f]{8,}\b/.exec(t);
  if (req) return req[0];
  const bare = t.replace(/^["'`]+|["'`,;]+$/g, "");
  return /^[A-Za-z0-9._:-]{1,128}$/.test(bare) ? bare : t.slice(0, 128);
}
