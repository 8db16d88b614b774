import Redis from "ioredis";
import { ioredisClient, ScriptMeter } from "@/lib/meter/redis";
import { meterContract } from "../helpers/meter-contract";

// The same contract on the real Redis of the machine (REDIS_URL or 127.0.0.1:6379).
meterContract("redis (ioredis)", async () => new ScriptMeter(ioredisClient(new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"))));
