import { createRequire } from "node:module";
import autocannon from "autocannon";

// autocannon appends every response body to a string (`req.body += chunk`) for an optional body
// check the benchmarks never use. That decodes each answer as UTF-8 (gzip bytes included) on the
// two cores the server shares with it: for the 35 KB gzip set page it cost the generator 0.3 to
// 0.4 ms a response against the server's 0.3 ms, so the figure measured the generator. Bytes are
// still counted (addByteCount) and statuses and durations still reported; only the unread copy
// of the body goes.
const Queue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as { prototype: { addBody(data: unknown): void } };
Queue.prototype.addBody = () => {};

export default autocannon;

/**
 * Enterprise keys of distinct accounts the HTTP loads spread over (400 requests per second
 * each): the meter decides and charges every request against Redis, and no rate limit binds at
 * the rates measured. 32 (12,800 req/s) were refused 429 on a machine whose custom server served
 * 13,400 req/s.
 */
export const BENCH_KEYS = 64;
