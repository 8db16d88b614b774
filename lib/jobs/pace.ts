// Job work that shares its process with a server answering requests. On the embedded PGlite
// database every statement runs in this thread, and its promises resolve without real I/O: a
// job that awaits one statement after another, or computes for long, keeps timers and sockets
// waiting (a health probe took a minute). Paced job work does its work in small pieces and
// hands the event loop back between them; PGlite's own statements do so after each one
// (lib/db/client.ts).

/** One turn of the event loop: timers, sockets and other requests run before what follows. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A slicer for a loop of CPU work: `await slice()` between items hands the event loop back once
 * `sliceMs` have passed since it last did. With `sliceMs` Infinity (work that is not paced) it
 * never does.
 */
export function slicer(sliceMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}

/** Time slice of paced CPU work: a request waits at most about this long for the loop. */
export const SLICE_MS = 30;
