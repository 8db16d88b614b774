import Redis from "ioredis";
import { ioredisClient, ScriptMeter } from "@/lib/meter/redis";
import { meterContract } from "../helpers/meter-contract";

// The same contract on the real Redis of the machine (REDIS_URL or 127.0.0.1:6379). Other
// tests share it: a lost account is one account's keys deleted, never the whole store.
meterContract("redis (ioredis)", async () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  const lose = async (account: string) => {
    const found = await redis.keys(`m:{${account}}:*`);
    if (found.length) await redis.del(...found);
  };
  return { meter: new ScriptMeter(ioredisClient(redis)), lose };
});
