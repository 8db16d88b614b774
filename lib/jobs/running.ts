// Jobs running inside this process (the embedded first start's demo prices, the identification
// index built on start): what /v1/status reports as `running`, with the share done, and what
// the collector pages read to say that prices are being prepared. On globalThis: the custom
// server loads lib/ once for /v1 and once more inside Next's bundle.

export type RunningJob = {
  job: string;
  /** What the job is doing now, e.g. "refresh-index". */
  phase: string | null;
  /** 0 to 1. */
  share_done: number;
  started_at: string;
};

/** A job's handle on its entry: stages with weights (their shares of the whole) and their progress. */
export type JobTracker = {
  /** Enters a stage (named in `stages`); the ones before it count as done. */
  stage(name: string): void;
  /** Progress within the current stage, 0 to 1. */
  share(done: number): void;
  /** Removes the entry: the job ended, however it ended. */
  end(): void;
};

const slot = globalThis as unknown as { __runningJobs?: Map<string, RunningJob> };
const registry = () => (slot.__runningJobs ??= new Map());

const clamp = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * Registers `job` as running. `stages` maps each stage to its weight (any positive numbers, e.g.
 * measured seconds); the share done is the finished stages' weight plus the current stage's
 * progress, over the total. Without stages, share() is the job's share directly.
 */
export function trackJob(job: string, stages: Record<string, number> = {}): JobTracker {
  const names = Object.keys(stages);
  const total = names.reduce((n, k) => n + stages[k]!, 0);
  const entry: RunningJob = { job, phase: null, share_done: 0, started_at: new Date().toISOString() };
  registry().set(job, entry);
  let before = 0;
  let weight = total ? 0 : 1;
  const rounded = (x: number) => Math.round(clamp(x) * 1000) / 1000;
  return {
    stage(name) {
      const i = names.indexOf(name);
      entry.phase = name;
      if (i < 0 || !total) return;
      before = names.slice(0, i).reduce((n, k) => n + stages[k]!, 0) / total;
      weight = stages[name]! / total;
      // Never backwards: a stage entered again (a retry) does not undo what was shown.
      entry.share_done = Math.max(entry.share_done, rounded(before));
    },
    share(done) {
      entry.share_done = Math.max(entry.share_done, rounded(before + weight * clamp(done)));
    },
    end() {
      if (registry().get(job) === entry) registry().delete(job);
    },
  };
}

/** Every job running in this process, oldest first. */
export function runningJobs(): RunningJob[] {
  return [...registry().values()].map((j) => ({ ...j })).sort((a, b) => (a.started_at < b.started_at ? -1 : 1));
}

export function runningJob(job: string): RunningJob | undefined {
  const j = registry().get(job);
  return j ? { ...j } : undefined;
}
