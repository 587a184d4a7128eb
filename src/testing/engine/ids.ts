/** Random hex of `bytes` bytes from the Web Crypto API (no Node built-ins, so the simulator runs in browsers). */
export function randomHex(bytes: number): string {
  const buf = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh support id for an error response, as the spec's `errorId`. */
export function newErrorId(): string {
  return `err_${randomHex(8)}`;
}

/** Sequential, readable ids (`ord_1`, `pos_2`…): deterministic within one exchange, so test output is stable. */
export class IdSequence {
  private readonly counters = new Map<string, number>();

  next(prefix: string): string {
    return `${prefix}_${this.nextNumber(prefix)}`;
  }

  nextNumber(prefix: string, start = 1): number {
    const value = this.counters.get(prefix) ?? start;
    this.counters.set(prefix, value + 1);
    return value;
  }
}

/** ISO-8601 of a ms epoch. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
