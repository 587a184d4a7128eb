import { FuturesError } from './futures-error.ts';

/** One problem found in the arguments of a call. */
export interface ValidationIssue {
  /** Where the problem is, e.g. `['orders', 2, 'quantity']`. */
  path: ReadonlyArray<string | number>;
  /** What is wrong, in words. */
  message: string;
}

/** `orders.2.quantity: <message>; …`: the issues with their paths. */
export function formatIssues(issues: ReadonlyArray<ValidationIssue>): string {
  return issues
    .map(({ path, message }) => `${path.length ? path.map(String).join('.') : '(root)'}: ${message}`)
    .join('; ');
}

/**
 * The arguments of a call break a documented rule (a decimal that is not a positive decimal string, a batch of
 * 6, leverage 126, ...). Thrown before any network I/O; the message names each offending field.
 * @example
 * ```ts
 * import { RequestValidationError } from 'futures-sdk';
 * await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 500 }).catch((err) => {
 *   if (err instanceof RequestValidationError) console.error(err.issues); // [{ path: ['leverage'], ... }]
 * });
 * ```
 */
export class RequestValidationError extends FuturesError {
  override name = 'RequestValidationError';
  /** Every problem found, each naming its field. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(issues: ReadonlyArray<ValidationIssue>, context?: string) {
    super(`Invalid request${context ? ` to ${context}` : ''}: ${formatIssues(issues)}`);
    this.issues = issues;
  }
}
