import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";
import { jobRuns } from "@/lib/db/schema";

export type JobName = "refresh-catalog" | "refresh-index" | "refresh-prices";
export const STATUS_JOBS: JobName[] = ["refresh-catalog", "refresh-index", "refresh-prices"];
/** Every job that records its runs; /v1/status reports the STATUS_JOBS among them. */
export type RecordedJob = JobName | "images" | "render-faces" | "vision-index";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function recordSuccess(tx: Tx | Db, job: RecordedJob, stats: Record<string, unknown>): Promise<void> {
  await tx
    .insert(jobRuns)
    .values({ job, lastSuccessAt: sql`now()` as never, lastAttemptAt: sql`now()` as never, contractOk: 1, lastError: null, stats })
    .onConflictDoUpdate({
      target: jobRuns.job,
      set: { lastSuccessAt: sql`now()`, lastAttemptAt: sql`now()`, contractOk: 1, lastError: null, stats },
    });
}

/** A failed run keeps last_success_at: the data it produced is still what is served. */
export async function recordFailure(db: Db, job: RecordedJob, error: string, contractBroken: boolean): Promise<void> {
  await db
    .insert(jobRuns)
    .values({ job, lastAttemptAt: sql`now()` as never, contractOk: contractBroken ? 0 : 1, lastError: error })
    .onConflictDoUpdate({
      target: jobRuns.job,
      set: { lastAttemptAt: sql`now()`, contractOk: contractBroken ? 0 : 1, lastError: error },
    });
}

/** Whether `job` ever completed: the embedded default's first-start work waits for the catalogue's import. */
export async function everSucceeded(job: RecordedJob): Promise<boolean> {
  const [r] = await rows<{ ok: boolean }>(sql`select exists (select 1 from job_runs where job = ${job} and last_success_at is not null) as ok`);
  return !!r?.ok;
}

export type JobRunRow = {
  job: string; last_success_at: string | null; last_attempt_at: string | null; contract_ok: number; last_error: string | null;
};

export async function listJobRuns(db?: Db): Promise<JobRunRow[]> {
  return rows<JobRunRow>(sql`select job, last_success_at, last_attempt_at, contract_ok, last_error from job_runs`, db);
}
