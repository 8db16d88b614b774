import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cached, resetResponseCacheForTests, type Rendered } from "@/lib/api/response-cache";

const answer = (text: string, status = 200): Rendered => ({ body: Buffer.from(text), etag: `"${text}"`, status });
const text = (r: Rendered) => r.body.toString();

describe("response cache", () => {
  let version = "1";
  const policy = { version: async () => version };

  beforeEach(() => {
    process.env.RESPONSE_CACHE_MB = "1";
    resetResponseCacheForTests();
    version = "1";
  });
  afterEach(() => {
    delete process.env.RESPONSE_CACHE_MB;
    resetResponseCacheForTests();
  });

  it("renders once per key and version", async () => {
    let renders = 0;
    const render = async () => answer(`r${++renders}`);
    expect(text(await cached(policy, "a", render))).toBe("r1");
    expect(text(await cached(policy, "a", render))).toBe("r1");
    expect(text(await cached(policy, "b", render))).toBe("r2");
    version = "2";
    expect(text(await cached(policy, "a", render))).toBe("r3");
    expect(renders).toBe(3);
  });

  it("never keeps an answer that is not a 200", async () => {
    let renders = 0;
    const render = async () => answer(`r${++renders}`, 404);
    await cached(policy, "x", render);
    await cached(policy, "x", render);
    expect(renders).toBe(2);
  });

  it("drops a render that finished after the version moved", async () => {
    let renders = 0;
    const slow = async () => {
      version = "2"; // an import commits while this answer is being rendered
      return answer(`r${++renders}`);
    };
    await cached(policy, "k", slow);
    // The next call sees version 2, so the old rendering must not be reused.
    expect(text(await cached(policy, "k", async () => answer("fresh")))).toBe("fresh");
  });

  it("evicts the least recently used answers beyond its memory", async () => {
    const big = "x".repeat(100 * 1024); // 1 MB holds about ten of these
    for (let i = 0; i < 12; i++) await cached(policy, `k${i}`, async () => answer(big + i));
    let rerendered = 0;
    await cached(policy, "k0", async () => { rerendered++; return answer("again"); });
    expect(rerendered).toBe(1);
    await cached(policy, "k11", async () => { rerendered++; return answer("again"); });
    expect(rerendered).toBe(1);
  });

  it("does not cache a single answer larger than an eighth of its memory", async () => {
    let renders = 0;
    const huge = async () => answer("y".repeat(200 * 1024) + ++renders);
    await cached(policy, "h", huge);
    await cached(policy, "h", huge);
    expect(renders).toBe(2);
  });
});
