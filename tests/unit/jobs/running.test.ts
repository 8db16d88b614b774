import { afterEach, describe, expect, it } from "vitest";
import { nextTurn, slicer } from "@/lib/jobs/pace";
import { runningJob, runningJobs, trackJob, type JobTracker } from "@/lib/jobs/running";

// The registry /v1/status and the collector pages read while a job runs in the process, and
// the pacing helpers of job work beside a server.

const open: JobTracker[] = [];
const track = (...a: Parameters<typeof trackJob>) => {
  const t = trackJob(...a);
  open.push(t);
  return t;
};
afterEach(() => {
  for (const t of open.splice(0)) t.end();
});

describe("running jobs", () => {
  it("a stage's share counts the stages before it at their weights", () => {
    const job = track("demo-prices", { generate: 1, apply: 2, index: 1 });
    expect(runningJob("demo-prices")).toMatchObject({ job: "demo-prices", phase: null, share_done: 0 });
    job.stage("generate");
    job.share(0.5);
    expect(runningJob("demo-prices")).toMatchObject({ phase: "generate", share_done: 0.125 });
    job.stage("apply");
    expect(runningJob("demo-prices")!.share_done).toBe(0.25);
    job.share(0.5);
    expect(runningJob("demo-prices")!.share_done).toBe(0.5);
    job.stage("index");
    job.share(1);
    expect(runningJob("demo-prices")).toMatchObject({ phase: "index", share_done: 1 });
  });

  it("never goes backwards, stays within 0 and 1, and without stages reports the share itself", () => {
    const job = track("refresh-prices");
    job.share(0.4);
    job.share(0.2);
    expect(runningJob("refresh-prices")!.share_done).toBe(0.4);
    job.share(7);
    expect(runningJob("refresh-prices")!.share_done).toBe(1);
    job.share(Number.NaN);
    expect(runningJob("refresh-prices")!.share_done).toBe(1);
  });

  it("lists jobs oldest first; end() removes only its own entry", () => {
    const a = track("vision-index");
    const b = track("refresh-index");
    expect(runningJobs().map((j) => j.job)).toEqual(["vision-index", "refresh-index"]);
    // A second run of the same job replaces the entry; the first one ending leaves the second.
    const again = track("vision-index");
    a.end();
    expect(runningJobs().map((j) => j.job).sort()).toEqual(["refresh-index", "vision-index"]);
    again.end();
    b.end();
    expect(runningJobs()).toEqual([]);
  });

  it("lives on globalThis, shared by the server's two module graphs", () => {
    track("demo-prices");
    const slot = globalThis as unknown as { __runningJobs?: Map<string, unknown> };
    expect(slot.__runningJobs?.has("demo-prices")).toBe(true);
  });
});

describe("pacing", () => {
  it("a slicer hands the loop back only once its slice has passed", async () => {
    const slice = slicer(20);
    expect(slice()).toBeUndefined();
    const until = performance.now() + 25;
    while (performance.now() < until);
    let turned = false;
    setImmediate(() => (turned = true));
    await slice();
    expect(turned).toBe(true);
    expect(slice()).toBeUndefined();
    expect(slicer(Infinity)()).toBeUndefined();
  });

  it("nextTurn lets timers and immediates queued before it run first", async () => {
    const seen: string[] = [];
    setImmediate(() => seen.push("immediate"));
    await nextTurn();
    expect(seen).toEqual(["immediate"]);
  });
});
