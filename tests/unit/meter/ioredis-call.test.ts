import { Command } from "ioredis";
import { describe, expect, it } from "vitest";
import { ScriptCall } from "@/lib/meter/ioredis";

// The meter's EVALSHA is written as RESP by hand (lib/meter/ioredis.ts): it must be byte for
// byte what ioredis would have written for the same call.

const sha = "0123456789abcdef0123456789abcdef01234567";
const asIoredis = (keys: string[], args: (string | number | null | undefined)[]) =>
  new Command("evalsha", [sha, keys.length, ...keys, ...args] as (string | number)[]).toWritable(undefined as never);

describe("ScriptCall", () => {
  const cases: [string, string[], (string | number | null | undefined)[]][] = [
    ["the acquire's shape", ["meter:{acct_1}:b", "meter:{acct_1}:l"], ["", 400, 800, 0, 100, "lease_x", 30000, 1, -1, -1, 86400, 0, "l2", "g", 0, 1, 1, "base1-4"]],
    ["no keys, no args", [], []],
    ["non-ASCII: accents, CJK, an emoji, a lone surrogate", ["k:é"], ["ポケモン", "😀", "\ud800", "née-4"]],
    ["fractions, negatives, large numbers", ["k"], [0.5, -0, -12.25, 1e21, 2 ** 53]],
    ["null and undefined become empty strings", ["k"], [null, undefined, "x"]],
    ["CR and LF inside a value", ["k"], ["a\r\nb", "\n"]],
  ];
  for (const [name, keys, args] of cases) {
    it(`writes what ioredis writes: ${name}`, () => {
      const ours = new ScriptCall(sha, keys, args as (string | number)[]).toWritable();
      expect(ours).toBe(asIoredis(keys, args));
      expect(ours.startsWith(`*${3 + keys.length + args.length}\r\n$7\r\nevalsha\r\n`)).toBe(true);
    });
  }

  it("counts a multi-byte value's length in bytes", () => {
    expect(new ScriptCall(sha, [], ["é"]).toWritable().endsWith("$2\r\né\r\n")).toBe(true);
  });
});
