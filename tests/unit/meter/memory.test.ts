import { MemoryMeter } from "@/lib/meter/memory";
import { meterContract } from "../../helpers/meter-contract";

meterContract("in-process", async () => {
  const meter = new MemoryMeter();
  // The driver's own map, emptied of one account's keys as a restart would empty all of them.
  const store = (meter as unknown as { store: Map<string, unknown> }).store;
  const lose = async (account: string) => {
    for (const k of [...store.keys()]) if (k.startsWith(`m:{${account}}:`)) store.delete(k);
  };
  return { meter, lose };
});
