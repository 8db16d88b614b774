import { ApiError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { isoTimestamp } from "@/lib/db/client";
import { runningJobs } from "@/lib/jobs/running";
import { listJobRuns, STATUS_JOBS, type JobName } from "./queries/jobs";
import { catalogCounts, ping } from "./queries/status";

// How old each job's last success may be before it stops counting as fresh: the catalogue
// changes weekly upstream, prices and the index daily.
const FRESH_HOURS: Record<JobName, number> = { "refresh-catalog": 24 * 8, "refresh-index": 36, "refresh-prices": 36 };

export type JobState = "fresh" | "stale" | "never_run" | "running";

export function jobState(job: JobName, ageHours: number | null): JobState {
  if (ageHours === null) return "never_run";
  return ageHours <= FRESH_HOURS[job] ? "fresh" : "stale";
}

/** GET /v1/status. A job running in this instance (the first start's demo prices) is listed in `jobs` with its share done. */
export async function getStatus(now = Date.now()) {
  const [counts, runs] = await Promise.all([catalogCounts(), listJobRuns()]);
  const byJob = new Map(runs.map((r) => [r.job, r]));
  const running = runningJobs();
  const sources = STATUS_JOBS.map((job) => {
    const run = byJob.get(job);
    const last = isoTimestamp(run?.last_success_at ?? null);
    const age = last ? Math.round(((now - Date.parse(last)) / 3_600_000) * 100) / 100 : null;
    const state: JobState = running.some((j) => j.job === job) ? "running" : jobState(job, age);
    return { source: job, last_success_at: last, age_hours: age, state };
  });
  const catalogRun = byJob.get("refresh-catalog");
  const contractOk = !catalogRun || catalogRun.contract_ok === 1;
  const upstreamError = contractOk ? null : catalogRun?.last_error ?? "upstream contract broken";
  return {
    body: {
      status: contractOk ? "ok" : "degraded",
      catalog: counts,
      sources,
      upstream: { contract_ok: contractOk, error: upstreamError },
      jobs: running.map((j) => ({ job: j.job, state: "running" as const, phase: j.phase, share_done: j.share_done, started_at: j.started_at })),
      version: env().APP_VERSION,
    },
  };
}

/** GET /v1/health: liveness and nothing else. A database that does not answer is a 503. */
export async function getHealth() {
  try {
    await ping();
  } catch {
    throw new ApiError("SERVICE_UNAVAILABLE", "The database does not answer.", { db: false }, { "retry-after": "5" });
  }
  return { body: { status: "ok", db: true } };
}
