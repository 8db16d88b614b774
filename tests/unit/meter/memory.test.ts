import { MemoryMeter } from "@/lib/meter/memory";
import { meterContract } from "../../helpers/meter-contract";

meterContract("in-process", async () => new MemoryMeter());
