import { dbKind } from "@/lib/db/client";

/** Opening the database applies pending migrations; this job does only that. */
export async function run(): Promise<number> {
  console.log(`[migrate] ${await dbKind()} schema is up to date`);
  return 0;
}
