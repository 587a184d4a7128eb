import { FuturesError } from './futures-error.ts';

/** One problem found in the arguments of a call. */
export interface ValidationIssue {
  /** Where the problem is, e.g. `['orders', 2, 'quantity']`. */
  path: ReadonlyArray<string | number>;
  /** What is wrong, in words. */
  message: string;
}

/** `orders.2.quantity`-style rendering of an issue path. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

/**
 * The arguments of a call break a documented rule (a decimal that is not a positive decimal string, a batch of
 * 6, leverage 126, ...). Thrown before any network I/O; the message names each offending field.
 *
 * @example
 * ```ts
 * import { RequestValidationError } from 'futures-sdk';
 * try {
 *   await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 500 });
 * } catch (err) {
 *   if (err instanceof RequestValidationError) console.error(err.issues); // [{ path: ['leverage'], ... }]
 * }
 * ```
 */
export class RequestValidationError extends FuturesError {
  override name = 'RequestValidationError';
  /** Every problem found, each naming its field. */
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(issues: ReadonlyArray<ValidationIssue>, context?: string) {
    const list = issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ');
    super(`Invalid request${context ? ` to ${context}` : ''}: ${list}`);
    this.issues = issues;
  }
}
