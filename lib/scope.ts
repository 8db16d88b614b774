import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A value carried along a run's awaits (AsyncLocalStorage) that costs nothing once its runs are
 * over. Node 20 calls a hook on every promise the process makes while any AsyncLocalStorage is
 * enabled, and a storage stays enabled from its first run until disable(): the hooks took a
 * quarter of a cached card answer's CPU. This one disables itself when its last run in flight
 * settles. Work a run leaves running after it settles sees no value.
 */
export type Scope<T> = { get(): T | undefined; run<R>(value: T, fn: () => Promise<R>): Promise<R> };

export function scope<T>(): Scope<T> {
  const storage = new AsyncLocalStorage<T>();
  let running = 0;
  return {
    get: () => storage.getStore(),
    async run<R>(value: T, fn: () => Promise<R>): Promise<R> {
      running++;
      try {
        return await storage.run(value, fn);
      } finally {
        if (--running === 0) storage.disable();
      }
    },
  };
}
