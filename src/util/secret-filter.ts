/**
 * Secret values a client registered (the SDK's secrets.addFilterValues: a token it generated, say) that no
 * session of the process may write to its log or show: each is replaced where it appears in a string. A
 * value shorter than four characters is not taken: it would blank out ordinary words.
 */
export const REDACTED = "******";

const MIN_LENGTH = 4;

export class SecretFilter {
  private values: string[] = [];

  /** Takes the values; answers how many are filtered now. */
  add(values: readonly string[]): number {
    const fresh = values.filter((value) => value.length >= MIN_LENGTH && !this.values.includes(value));
    // Longest first: a value that contains another is replaced whole.
    this.values = [...this.values, ...fresh].sort((a, b) => b.length - a.length);
    return this.values.length;
  }

  get active(): boolean {
    return this.values.length > 0;
  }

  /** `value` with every registered secret in its strings replaced (a copy when anything changed). */
  redact<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") {
      let text = value;
      for (const secret of this.values) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
      return text;
    }
    if (Array.isArray(value)) {
      const items = value.map((item) => this.walk(item));
      return items.some((item, index) => item !== value[index]) ? items : value;
    }
    if (value !== null && typeof value === "object") {
      let changed = false;
      const entries = Object.entries(value).map(([key, item]) => {
        const next = this.walk(item);
        if (next !== item) changed = true;
        return [key, next] as const;
      });
      return changed ? Object.fromEntries(entries) : value;
    }
    return value;
  }
}
