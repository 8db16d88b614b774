import { closeDb, setDbRole } from "@/lib/db/client";

// `npm run job -- <name> [--flag value ...]`. One file per job exports run(args) → exit code.
const JOBS: Record<string, () => Promise<{ run: (args: Map<string, string>) => Promise<number> }>> = {
  "refresh-catalog": () => import("./refresh-catalog"),
  migrate: () => import("./migrate"),
  "send-mail": () => import("./send-mail"),
  "refresh-prices": () => import("./refresh-prices"),
  "refresh-index": () => import("./refresh-index"),
  "demo-prices": () => import("./demo-prices"),
  "import-fx": () => import("./import-fx"),
  "build-bulk": () => import("./build-bulk"),
  images: () => import("./images"),
  "render-faces": () => import("./render-faces"),
  "vision-index": () => import("./vision-index"),
};

function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split("=", 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) args.set(k, inline);
    else if (next !== undefined && !next.startsWith("--")) args.set(k, argv[++i]!);
    else args.set(k, "true");
  }
  return args;
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const load = name ? JOBS[name] : undefined;
  if (!load) {
    console.error(`usage: npm run job -- <${Object.keys(JOBS).join("|")}> [--source DIR] [--watch]`);
    return 2;
  }
  // Jobs run statements of minutes (a feed file's batch, the index, a vacuum): not the app's limit.
  setDbRole("job");
  try {
    return await (await load()).run(parseArgs(rest));
  } finally {
    await closeDb();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
