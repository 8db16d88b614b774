// Loads kept by key as their promises, so that callers asking at once share one load. The
// least recently used goes past `max`; a load that fails is dropped at once, so the next caller
// loads again rather than being handed the old failure.

export class PromiseLru<T, Meta = undefined> {
  private readonly entries = new Map<string, { value: Promise<T>; meta: Meta }>();

  constructor(private readonly max: number) {}

  /** The kept value for `key` when `fresh(meta)` allows it, else `load()`'s, kept with `meta`. */
  get(key: string, load: () => Promise<T>, meta: Meta, fresh: (kept: Meta) => boolean = () => true): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && fresh(hit.meta)) {
      // Most recently used last: the first key is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = load();
    this.entries.set(key, { value, meta });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
