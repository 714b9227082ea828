/**
 * A least-recently-used map bounded by its number of entries and by the characters of its keys and
 * values: the renderer's caches (builder fragments in builder-core.ts, prepared documents in
 * render-document.ts). An entry larger than `entryMaxChars` is not kept.
 */
export class SizedCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
    private readonly charsOf: (value: V) => number,
    private readonly entryMaxChars = Infinity,
  ) {}

  /** The value, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Keeps a value not held yet, pushing the least recently used out past the bounds. */
  set(key: string, value: V): void {
    const size = key.length + this.charsOf(value);
    if (size > this.entryMaxChars) return;
    this.entries.set(key, value);
    this.chars += size;
    while (this.entries.size > this.maxEntries || (this.chars > this.maxChars && this.entries.size > 1)) {
      const [oldKey, old] = this.entries.entries().next().value!;
      this.entries.delete(oldKey);
      this.chars -= oldKey.length + this.charsOf(old);
    }
  }

  stats(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
