import { openIndex } from "@/lib/vision/index-file";
import { scannerOf } from "@/lib/vision/search";

// What a server holds for the identification index, measured in a process of its own (run by
// eval-vision.ts with --expose-gc): the heap and buffers before and after loading it.

async function main() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  gc();
  const before = process.memoryUsage();
  const idx = await openIndex();
  if (!idx) throw new Error("no index");
  gc();
  const after = process.memoryUsage();
  const held = after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers;
  // The coarse scan's SIMD copy, made on the first search (WebAssembly memory, outside the heap).
  const simd = scannerOf(idx.coarse)?.bytes ?? 0;
  console.log(JSON.stringify({ cards: idx.meta.ids.length, held_bytes: held, simd_bytes: simd, coarse_bytes: idx.coarse.byteLength, file_bytes: idx.fileBytes }));
  await idx.close();
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
