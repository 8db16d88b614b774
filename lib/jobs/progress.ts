// Progress on a terminal: one rewritten line when stdout is a TTY, plain lines otherwise
// (CI logs), never more often than every 250 ms.
export type Progress = {
  phase(name: string): void;
  tick(n?: number): void;
  note(text: string): void;
  done(summary: string): void;
};

export function progress(job: string, opts: { quiet?: boolean } = {}): Progress {
  const out = process.stdout;
  const tty = !!out.isTTY;
  const started = Date.now();
  let phase = "";
  let phaseStart = started;
  let count = 0;
  let lastPrint = 0;

  const line = (final = false) => {
    if (opts.quiet) return;
    const secs = (Date.now() - phaseStart) / 1000;
    const rate = secs > 0 ? Math.round(count / secs) : 0;
    const text = `[${job}] ${phase}: ${count.toLocaleString("en")} rows, ${rate.toLocaleString("en")} rows/s, ${secs.toFixed(1)} s`;
    if (tty) out.write(`\r\x1b[K${text}${final ? "\n" : ""}`);
    else if (final) out.write(`${text}\n`);
  };

  return {
    phase(name) {
      if (phase && count) line(true);
      phase = name;
      phaseStart = Date.now();
      count = 0;
    },
    tick(n = 1) {
      count += n;
      const now = Date.now();
      if (tty && now - lastPrint > 250) {
        lastPrint = now;
        line();
      }
    },
    note(text) {
      if (opts.quiet) return;
      if (tty) out.write("\r\x1b[K");
      out.write(`[${job}] ${text}\n`);
    },
    done(summary) {
      if (phase && count) line(true);
      if (!opts.quiet) out.write(`[${job}] ${summary} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    },
  };
}
