import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { progress } from "@/lib/jobs/progress";

// Hand-made price feed folders for refresh-prices: "<source>/<file>" → its lines.

export const quiet = () => progress("test", { quiet: true });

/** YYYY-MM-DD, `offset` days from today (UTC). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export function feeds(files: Record<string, string[]>, prefix = "feeds-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [name, lines] of Object.entries(files)) {
    const [source, file] = name.split("/") as [string, string];
    mkdirSync(path.join(dir, source), { recursive: true });
    writeFileSync(path.join(dir, source, file), lines.join("\n") + "\n");
  }
  return dir;
}
